package dev.tensorbroadcast.arrowio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Partition;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.Shape;
import java.io.ByteArrayOutputStream;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class DiscardingTensorWriterTest {
    /**
     * {@code [3,1,5] -> [8,3,7,5]} int16: the expected bytes are built here by index arithmetic (out[a,b,c,d] =
     * in[b,0,d]), independently of the copy program, and every partition's CRC must equal theirs.
     */
    @Test
    void checksumIsTheCrcOfTheBroadcastValues() {
        Shape input = Shape.of(3, 1, 5);
        Shape output = Shape.of(8, 3, 7, 5);
        byte[] in = new byte[3 * 5 * 2];
        new Random(7).nextBytes(in);
        SourceTensor source = SourceTensor.fixedWidth(DType.INT16, input, in, null);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (int a = 0; a < 8; a++) {
            for (int b = 0; b < 3; b++) {
                for (int c = 0; c < 7; c++) {
                    for (int d = 0; d < 5; d++) {
                        expected.write(in, (b * 5 + d) * 2, 2);
                    }
                }
            }
        }
        byte[] all = expected.toByteArray();
        PartitionPlan plan =
                PartitionPlan.builder(output, DType.INT16).partitions(3).build();
        long valueBytes = 0;
        for (long p = 0; p < plan.partitionCount(); p++) {
            Partition partition = plan.partition(p);
            // rows of at most 210 bytes and batches of 300: every partition is filled in several batches
            DiscardResult result = DiscardingTensorWriter.create()
                    .withBatchBytes(300)
                    .write(TensorKernel.of(source, RandomTensors.program(input, output)), plan.rowShape(), partition);
            int from = (int) (partition.firstElement() * 2);
            int to = (int) (partition.endElement() * 2);
            CRC32C crc = new CRC32C();
            crc.update(all, from, to - from);
            assertThat(result.crc32c()).as("partition %d", p).isEqualTo(crc.getValue());
            assertThat(result.valueBytes()).isEqualTo(to - from);
            assertThat(result.rows()).isEqualTo(partition.rowCount());
            assertThat(result.batches()).isGreaterThan(1);
            valueBytes += result.valueBytes();
        }
        assertThat(valueBytes).isEqualTo(all.length);
    }

    /** Strings and bools are checksummed as the Arrow file holds them; two sources give two checksums. */
    @Test
    void checksumFollowsTheValuesOfEveryStorage() {
        Shape input = Shape.of(4, 1);
        Shape output = Shape.of(4, 50);
        for (DType dtype : new DType[] {DType.STRING, DType.BOOL, DType.COMPLEX64}) {
            PartitionPlan plan = PartitionPlan.builder(output, dtype).build();
            DiscardResult first =
                    discard(RandomTensors.source(new Random(1), dtype, input, false), input, output, plan);
            DiscardResult again =
                    discard(RandomTensors.source(new Random(1), dtype, input, false), input, output, plan);
            DiscardResult other =
                    discard(RandomTensors.source(new Random(2), dtype, input, false), input, output, plan);
            assertThat(again).as("%s", dtype).isEqualTo(first);
            assertThat(other.crc32c()).as("%s", dtype).isNotEqualTo(first.crc32c());
            assertThat(first.rows()).isEqualTo(4);
        }
    }

    private static DiscardResult discard(SourceTensor source, Shape input, Shape output, PartitionPlan plan) {
        return DiscardingTensorWriter.create()
                .write(
                        TensorKernel.of(source, RandomTensors.program(input, output)),
                        plan.rowShape(),
                        plan.partition(0));
    }
}
