package dev.tensorbroadcast.job.source;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.format.DatasetChunk;
import dev.tensorbroadcast.arrowio.format.DatasetPart;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.RowLineage;
import java.util.ArrayList;
import java.util.List;

/**
 * Partitions cut where a dataset's row groups (or record batches) end, for a source read in slices: a task reads
 * whole row groups, so a row group shared by two partitions is read, decompressed and decoded twice. Consecutive
 * small row groups share a partition up to the partition size; a row group of more than four partitions' worth of
 * output is cut in that many pieces, which each read it (parallelism matters more there than the repeated read).
 */
public final class RowGroupCuts {
    /** Most partitions a cut plan lists: each task carries the list. */
    static final int MAX_CUT_PARTITIONS = 4096;
    /** A row group is cut in pieces when its output exceeds this many partition sizes. */
    static final long SPLIT_FACTOR = 4;

    private RowGroupCuts() {}

    /**
     * {@code uniform} with partitions cut at the row groups of {@code dataset}, when output rows follow its rows
     * ({@code lineage}, one step per source row); else {@code uniform} itself.
     */
    public static PartitionPlan align(
            PartitionPlan uniform, TensorDataset dataset, RowLineage lineage, long partitionBytes) {
        requireNonNull(uniform, "uniform is null");
        requireNonNull(dataset, "dataset is null");
        requireNonNull(lineage, "lineage is null");
        if (lineage.sourceRows() != dataset.rows()
                || dataset.rows() < 2
                || uniform.rows() != dataset.rows() * lineage.outputRowsPerStep()) {
            return uniform;
        }
        long perRow = lineage.outputRowsPerStep();
        long rowBytes = Math.max(1, uniform.rowBytes());
        List<Long> starts = new ArrayList<>();
        long pending = 0;
        long at = 0;
        for (DatasetPart part : dataset.parts()) {
            for (DatasetChunk chunk : part.chunks()) {
                long rows = chunk.rows();
                if (rows == 0) {
                    continue;
                }
                long outRows = rows * perRow;
                long outBytes = outRows > Long.MAX_VALUE / rowBytes ? Long.MAX_VALUE : outRows * rowBytes;
                long pieces = Math.min(outRows, Math.max(1, ceilDiv(outBytes, SPLIT_FACTOR * partitionBytes)));
                if (starts.isEmpty() || pieces > 1 || pending > partitionBytes - outBytes) {
                    starts.add(at * perRow);
                    pending = 0;
                }
                for (long piece = 1; piece < pieces; piece++) {
                    starts.add(at * perRow + outRows * piece / pieces);
                }
                // after a cut row group the next one starts its own partition
                pending = pieces > 1 ? partitionBytes : pending + outBytes;
                at += rows;
                if (starts.size() > MAX_CUT_PARTITIONS) {
                    return uniform;
                }
            }
        }
        return uniform.cutAt(starts.stream().mapToLong(Long::longValue).toArray());
    }

    private static long ceilDiv(long a, long b) {
        return a / b + (a % b == 0 ? 0 : 1);
    }
}
