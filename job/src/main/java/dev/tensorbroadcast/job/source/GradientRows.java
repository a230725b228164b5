package dev.tensorbroadcast.job.source;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.format.npy.NpyRows;
import dev.tensorbroadcast.arrowio.reduce.ReduceKernel;
import dev.tensorbroadcast.arrowio.source.DatasetSlices;
import dev.tensorbroadcast.arrowio.source.SourceSlice;
import dev.tensorbroadcast.job.base.InputException;
import dev.tensorbroadcast.job.base.Reasons;
import dev.tensorbroadcast.job.base.TaskStop;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.ReducePlan;
import dev.tensorbroadcast.planner.SourceRows;
import java.io.IOException;
import java.io.Serializable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.broadcast.Broadcast;

/**
 * Where a reduce task reads the gradient: a tensor the driver read and shipped once as a broadcast variable, or a
 * dataset or {@code .npy} file each task reads in chunks of rows, only the rows it sums. One of the three is set.
 */
public final class GradientRows implements Serializable {
    private static final long serialVersionUID = 1L;
    /** A task holds one chunk of gradient rows at a time: this many bytes, or one row when a row is larger. */
    static final long CHUNK_BYTES = 16L << 20;
    /**
     * The chunk of a {@code .npy} read by offset: small enough to stay in a core's cache between the read that writes
     * it and the sum that reads it, which then reads memory once instead of three times (1.6x the 16 MiB chunk's
     * speed on the benchmark's machine, docs/benchmarks.md). A read of a few rows costs one {@code pread}.
     */
    static final long NPY_CHUNK_BYTES = 1L << 20;

    private final Broadcast<SourceTensor> shipped;
    private final TensorDataset dataset;
    private final Gradient.NpyFile npy;
    /** The dataset's rows in one gradient row: more than 1 for a dataset of ours cut below its first dim. */
    private final long datasetRowsPerRow;

    private GradientRows(
            Broadcast<SourceTensor> shipped, TensorDataset dataset, Gradient.NpyFile npy, long datasetRowsPerRow) {
        this.shipped = shipped;
        this.dataset = dataset;
        this.npy = npy;
        this.datasetRowsPerRow = datasetRowsPerRow;
    }

    /** Ships a tensor gradient once; a dataset or a large .npy is read by the tasks. */
    public static GradientRows open(Gradient gradient, Shipping spark) {
        requireNonNull(gradient, "gradient is null");
        if (gradient instanceof Gradient.InMemory memory) {
            return new GradientRows(spark.broadcast(memory.tensor()), null, null, 1);
        }
        if (gradient instanceof Gradient.Stored stored) {
            return new GradientRows(null, stored.dataset(), null, stored.datasetRowsPerRow());
        }
        return new GradientRows(null, null, (Gradient.NpyFile) gradient, 1);
    }

    /**
     * Adds gradient rows {@code [firstRow, endRow)} into {@code partial}, which holds the result from element
     * {@code sourceOrigin} on, reading a dataset chunk by chunk. Returns the bytes read from files.
     */
    public long reduce(
            ReducePlan plan, long firstRow, long endRow, ReduceKernel partial, long sourceOrigin, Configuration conf) {
        try (Reader reader = reader(conf)) {
            return reader.reduce(plan, firstRow, endRow, partial, sourceOrigin);
        }
    }

    /** {@link #reduce(ReducePlan, long, long, ReduceKernel, long, Configuration)} in chunks of this many bytes. */
    long reduce(
            ReducePlan plan,
            long firstRow,
            long endRow,
            ReduceKernel partial,
            long sourceOrigin,
            Configuration conf,
            long chunkBytes) {
        try (Reader reader = reader(conf)) {
            return reader.reduce(plan, firstRow, endRow, partial, sourceOrigin, chunkBytes);
        }
    }

    /**
     * A reader for one task's calls: a {@code .npy} opened once, its chunks read into one buffer, however many
     * ranges of rows the task sums (a rows-kept task sums a block of rows at a time).
     */
    public Reader reader(Configuration conf) {
        requireNonNull(conf, "conf is null");
        try {
            return new Reader(npy == null ? null : openNpy(conf), conf);
        } catch (IOException e) {
            throw new InputException("Cannot read input '" + npy.location() + "': " + Reasons.of(e));
        }
    }

    /** The rows of a chunk of {@code plan}'s gradient, at least one. */
    long chunkRows(ReducePlan plan) {
        long rowBytes = Math.max(1, plan.outputRowElements() * plan.dtype().byteWidth());
        return Math.max(1, chunkBytes(plan) / rowBytes);
    }

    /** See {@link #reader}; not thread-safe, one per task. */
    public final class Reader implements AutoCloseable {
        /** The open {@code .npy}, or null for a shipped tensor or a dataset. */
        private final NpyRows file;

        private final Configuration conf;

        private Reader(NpyRows file, Configuration conf) {
            this.file = file;
            this.conf = conf;
        }

        /** As {@link GradientRows#reduce(ReducePlan, long, long, ReduceKernel, long, Configuration)}. */
        public long reduce(ReducePlan plan, long firstRow, long endRow, ReduceKernel partial, long sourceOrigin) {
            return reduce(plan, firstRow, endRow, partial, sourceOrigin, chunkBytes(plan));
        }

        long reduce(
                ReducePlan plan, long firstRow, long endRow, ReduceKernel partial, long sourceOrigin, long chunkBytes) {
            long rowElements = plan.outputRowElements();
            if (shipped != null) {
                partial.accumulate(
                        shipped.value(), 0, plan.program(), firstRow * rowElements, endRow * rowElements, sourceOrigin);
                return 0;
            }
            long rowBytes = Math.max(1, rowElements * plan.dtype().byteWidth());
            long chunkRows = Math.max(1, chunkBytes / rowBytes);
            long bytesRead = 0;
            try {
                for (long row = firstRow; row < endRow; row += chunkRows) {
                    // a stopped task ends here, not at the end of its rows
                    TaskStop.check();
                    long end = Math.min(endRow, row + chunkRows);
                    SourceRows rows = new SourceRows(row, end);
                    SourceSlice slice;
                    if (file != null) {
                        // one buffer for every chunk: a task allocates its chunk once, not per read
                        SourceTensor tensor = file.read(rows, true);
                        slice = new SourceSlice(rows, tensor, tensor.values().length);
                    } else {
                        slice = DatasetSlices.read(
                                dataset, new SourceRows(row * datasetRowsPerRow, end * datasetRowsPerRow), conf);
                    }
                    partial.accumulate(
                            slice.tensor(),
                            row * rowElements,
                            plan.program(),
                            row * rowElements,
                            end * rowElements,
                            sourceOrigin);
                    bytesRead += slice.bytesRead();
                }
            } catch (IOException e) {
                throw new InputException("Cannot read input '" + npy.location() + "': " + Reasons.of(e));
            }
            return bytesRead;
        }

        @Override
        public void close() {
            if (file == null) {
                return;
            }
            try {
                file.close();
            } catch (IOException e) {
                throw new InputException("Cannot read input '" + npy.location() + "': " + Reasons.of(e));
            }
        }
    }

    /**
     * The bytes of a chunk: small for a {@code .npy}, unless a run summed into one element crosses rows (every axis
     * summed, {@code [N,K] -> [1]}), whose sum is grouped by chunk: those keep the chunk they always had, so a
     * partitioning gives the bits it always gave.
     */
    long chunkBytes(ReducePlan plan) {
        if (npy == null) {
            return CHUNK_BYTES;
        }
        CopyProgram program = plan.program();
        int last = program.depth() - 1;
        boolean sumsAcrossRows =
                last >= 0 && program.innermostRepeats() && program.counts()[last] > plan.outputRowElements();
        return sumsAcrossRows ? CHUNK_BYTES : NPY_CHUNK_BYTES;
    }

    private NpyRows openNpy(Configuration conf) throws IOException {
        Path path = new Path(npy.location());
        return NpyRows.open(path.getFileSystem(conf), path, npy.layout());
    }

    /** Frees the shipped tensor once the job is done. */
    public void release() {
        if (shipped != null) {
            dev.tensorbroadcast.job.base.Broadcasts.destroy(shipped);
        }
    }
}
