package dev.tensorbroadcast.job.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.arrowio.format.DatasetChunk;
import dev.tensorbroadcast.arrowio.format.DatasetPart;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.format.parquet.ParquetFormat;
import dev.tensorbroadcast.planner.BroadcastPlan;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.Partition;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.RowLineage;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.TargetShape;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** Partitions of a dataset read in slices follow its row groups: none is read by two tasks unless it is huge. */
class RowGroupCutsTest {
    private static final long MIB = 1 << 20;

    /** A dataset of [1,64] float32 rows (256 B each) in files of the given row groups' rows. */
    private static TensorDataset dataset(long[]... files) {
        List<DatasetPart> parts = new ArrayList<>();
        long first = 0;
        for (int f = 0; f < files.length; f++) {
            List<DatasetChunk> chunks = LongStream.of(files[f])
                    .mapToObj(rows -> new DatasetChunk(rows, rows * 256))
                    .toList();
            parts.add(new DatasetPart("file:/d/part-" + f + ".parquet", new ParquetFormat(), first, 1, chunks));
            first += LongStream.of(files[f]).sum();
        }
        return new TensorDataset("d", "features", DType.FLOAT32, Shape.of(1, 64), false, parts);
    }

    /** [N,1,64] -> [N,8,64]: 2 KiB of output per source row. */
    private static PartitionPlan cut(TensorDataset dataset, long partitionBytes) {
        BroadcastPlan plan = BroadcastRequest.builder(Dialect.PYTORCH)
                .input(dataset.shape())
                .target(TargetShape.parse("-1,8,64"))
                .build()
                .plan();
        PartitionPlan uniform =
                PartitionPlan.builderFor(plan).partitionBytes(partitionBytes).build();
        return RowGroupCuts.align(
                uniform, dataset, RowLineage.of(plan, 0, uniform).orElseThrow(), partitionBytes);
    }

    private static List<Long> starts(PartitionPlan plan) {
        return LongStream.range(0, plan.partitionCount())
                .mapToObj(plan::partition)
                .map(Partition::firstRow)
                .toList();
    }

    @Test
    void eachRowGroupIsOnePartitionUpToFourPartitionSizes() {
        // pyarrow's default: one row group per file; 65536 rows give 128 MiB of output each
        TensorDataset dataset = dataset(new long[] {65536}, new long[] {65536}, new long[] {65536});

        assertThat(starts(cut(dataset, 64 * MIB))).containsExactly(0L, 65536L, 131072L);
    }

    @Test
    void smallRowGroupsShareAPartitionUpToItsSize() {
        // row groups of 8192 rows (16 MiB of output): four to a 64 MiB partition
        TensorDataset dataset = dataset(new long[] {8192, 8192, 8192, 8192, 8192}, new long[] {8192, 8192, 8192});

        assertThat(starts(cut(dataset, 64 * MIB))).containsExactly(0L, 32768L);
    }

    @Test
    void aHugeRowGroupIsCutInPiecesOfFourPartitionSizes() {
        // 1 Mi rows, 2 GiB of output, against 64 MiB partitions: 8 pieces of 256 MiB; the small group after it alone
        TensorDataset dataset = dataset(new long[] {1 << 20, 100});

        assertThat(starts(cut(dataset, 64 * MIB)))
                .containsExactly(0L, 131072L, 262144L, 393216L, 524288L, 655360L, 786432L, 917504L, 1048576L);
    }

    @Test
    void outputRowsThatAreNotSourceRowsKeepTheUniformPlan() {
        TensorDataset dataset = dataset(new long[] {65536}, new long[] {65536});
        BroadcastPlan plan = BroadcastRequest.builder(Dialect.NUMPY)
                .input(Shape.of(1, 64))
                .target(TargetShape.parse("65536,64"))
                .build()
                .plan();
        PartitionPlan uniform = PartitionPlan.builderFor(plan).build();

        assertThat(RowGroupCuts.align(
                        uniform, dataset, RowLineage.of(plan, 0, uniform).orElseThrow(), 64 * MIB))
                .isSameAs(uniform);
    }
}
