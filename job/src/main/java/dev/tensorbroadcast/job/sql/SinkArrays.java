package dev.tensorbroadcast.job.sql;

import dev.tensorbroadcast.arrowio.format.ArrayFileFormat;
import dev.tensorbroadcast.arrowio.format.ArrayLayout;
import dev.tensorbroadcast.job.sink.FileOptions;
import dev.tensorbroadcast.planner.BroadcastException;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.Shape;

/**
 * The sink's arrays (Zarr): the layout of {@code rows} rows of a row shape, as {@code expand} lays out its output
 * with the chunks given, and what a DataFrame partition must hold to write whole chunks of it.
 */
final class SinkArrays {
    private SinkArrays() {}

    /**
     * The array of {@code rows} rows of {@code rowShape}, chunked as {@code files} says; refused in the line
     * {@code expand} refuses the chunks with (another rank, a chunk too large, a dtype the format has not).
     */
    static ArrayLayout layout(FileOptions files, DType dtype, long rows, Shape rowShape) {
        ArrayFileFormat array = files.array().orElseThrow();
        long[] dims = new long[rowShape.rank() + 1];
        dims[0] = rows;
        System.arraycopy(rowShape.dims(), 0, dims, 1, rowShape.rank());
        Shape shape = Shape.of(dims);
        try {
            // with chunks given, the layout takes only the plan's output shape
            PartitionPlan plan =
                    PartitionPlan.builder(shape, dtype).partitions(1).build();
            return files.chunking().layout(array, plan, dtype, files.settings().compression());
        } catch (BroadcastException e) {
            throw new InvalidRequestException(e.commandLineMessage());
        }
    }

    /** The rows of one object's first dim: a partition starts at a multiple of them. */
    static long blockRows(ArrayLayout layout) {
        return layout.shape().rank() == 0 ? 1 : layout.block()[0];
    }

    /** The refusal of a partition of rows {@code [first, end)} that does not hold whole chunks. */
    static InvalidRequestException notWholeChunks(long first, long end, long block) {
        return new InvalidRequestException("Cannot write a tensorbroadcast dataset as zarr: a partition holds index "
                + first + " to " + (end - 1) + ", not whole chunks of " + block + " rows; each partition's rows must"
                + " start at a multiple of " + block + " (the first dim of the chunks, or of the shard) and all but"
                + " the last end at one");
    }
}
