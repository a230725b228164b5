package dev.tensorbroadcast.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.job.source.Gradient;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.ReducePlan;
import dev.tensorbroadcast.planner.Shape;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Partials merged on the driver, in the tree's shape, give the bits the tree's shuffle stages give. */
class ReduceMergeTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    private static ReducePlan plan(String input, long... target) {
        return ReducePlan.of(
                BroadcastRequest.builder(Dialect.NUMPY)
                        .input(Shape.parse(input))
                        .target(target)
                        .build()
                        .plan(),
                0);
    }

    @Test
    void theDriverMergesInTheTreesOrder() {
        Random random = new Random(13);
        int rows = 501;
        int columns = 16;
        ByteBuffer values = ByteBuffer.allocate(4 * rows * columns).order(ByteOrder.LITTLE_ENDIAN);
        // large rows, small rows, then the large rows negated: the sums keep only the small values, and a float64
        // sum added in another order keeps other bits of them
        float[] large = new float[rows * columns / 3];
        for (int i = 0; i < large.length; i++) {
            large[i] = (float) (random.nextGaussian() * 1e14);
            values.putFloat(large[i]);
        }
        while (values.position() < values.capacity() - 4 * large.length) {
            values.putFloat((float) random.nextGaussian());
        }
        for (float value : large) {
            values.putFloat(-value);
        }
        Gradient gradient = new Gradient.InMemory(
                SourceTensor.fixedWidth(DType.FLOAT32, Shape.of(rows, columns), values.array(), null));
        ReducePlan plan = plan("[16]", rows, columns);
        // 100 partials: a tree three levels deep, 100 -> 13 -> 2 -> 1
        ReduceJob job = ReduceJob.of(gradient, plan, 100);
        assertThat(ReduceJob.mergesOnDriver(plan, 100, ReduceJob.DRIVER_MERGE_BYTES))
                .isTrue();
        byte[] onDriver = job.run(SPARK.session(), "driver").values();
        byte[] inStages =
                job.withDriverMergeBytes(0).run(SPARK.session(), "stages").values();
        assertThat(onDriver).isEqualTo(inStages);
        // another tree (another partitioning) adds in another order: the comparison above can tell them apart
        assertThat(ReduceJob.of(gradient, plan, 3).run(SPARK.session(), "three").values())
                .isNotEqualTo(onDriver);
    }

    @Test
    void largePartialsStayInTheTree() {
        ReducePlan plan = plan("[1,4096]", 2, 4096);
        assertThat(ReduceJob.mergesOnDriver(plan, 1024, ReduceJob.DRIVER_MERGE_BYTES))
                .isTrue();
        assertThat(ReduceJob.mergesOnDriver(plan, 1025, ReduceJob.DRIVER_MERGE_BYTES))
                .isFalse();
        assertThat(ReduceJob.mergesOnDriver(plan, 1, ReduceJob.DRIVER_MERGE_BYTES))
                .isFalse();
    }
}
