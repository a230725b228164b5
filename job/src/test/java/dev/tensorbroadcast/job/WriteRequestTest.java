package dev.tensorbroadcast.job;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.TargetShape;
import org.junit.jupiter.api.Test;

/** The Java API's two builders take the write request alike: the same refusals, in the API's words. */
class WriteRequestTest {
    private static final String BOTH = "Cannot use a partition size with a partition count: they are mutually"
            + " exclusive (give a size per partition or a partition count)";

    @Test
    void bothBuildersRefuseAPartitionSizeWithACount() {
        assertThatThrownBy(() -> TensorBroadcast.builder().source("/tmp/in.npy").dialect(Dialect.NUMPY)
                .partitionBytes(1 << 20).partitions(4).build())
                .isInstanceOf(InvalidRequestException.class).hasMessage(BOTH);
        assertThatThrownBy(() -> reduce().partitionBytes(1 << 20).partitions(4).build())
                .isInstanceOf(InvalidRequestException.class).hasMessage(BOTH);
        assertThatThrownBy(() -> reduce().partitions(4).partitionBytes(1 << 20).build())
                .isInstanceOf(InvalidRequestException.class).hasMessage(BOTH);
    }

    private static TensorReduce.Builder reduce() {
        return TensorReduce.builder().gradient("/tmp/grad.npy").dialect(Dialect.NUMPY).inputShape(Shape.of(1, 4))
                .shape(TargetShape.parse("[8,4]")).output("/tmp/out.npy");
    }
}
