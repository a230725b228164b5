package dev.tensorbroadcast.job.source;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.reduce.ReduceKernel;
import dev.tensorbroadcast.arrowio.source.DatasetSlices;
import dev.tensorbroadcast.arrowio.source.NpyRows;
import dev.tensorbroadcast.arrowio.source.SourceSlice;
import dev.tensorbroadcast.arrowio.source.TensorDataset;
import dev.tensorbroadcast.job.base.InputException;
import dev.tensorbroadcast.job.base.Reasons;
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

    private final Broadcast<SourceTensor> shipped;
    private final TensorDataset dataset;
    private final Gradient.NpyFile npy;

    private GradientRows(Broadcast<SourceTensor> shipped, TensorDataset dataset, Gradient.NpyFile npy) {
        this.shipped = shipped;
        this.dataset = dataset;
        this.npy = npy;
    }

    /** Ships a tensor gradient once; a dataset or a large .npy is read by the tasks. */
    public static GradientRows open(Gradient gradient, org.apache.spark.api.java.JavaSparkContext spark) {
        requireNonNull(gradient, "gradient is null");
        if (gradient instanceof Gradient.InMemory memory) {
            return new GradientRows(spark.broadcast(memory.tensor()), null, null);
        }
        if (gradient instanceof Gradient.Stored stored) {
            return new GradientRows(null, stored.dataset(), null);
        }
        return new GradientRows(null, null, (Gradient.NpyFile) gradient);
    }

    /**
     * Adds gradient rows {@code [firstRow, endRow)} into {@code partial}, which holds the result from element
     * {@code sourceOrigin} on, reading a dataset chunk by chunk. Returns the bytes read from files.
     */
    public long reduce(ReducePlan plan, long firstRow, long endRow, ReduceKernel partial, long sourceOrigin,
            Configuration conf) {
        long rowElements = plan.outputRowElements();
        if (shipped != null) {
            partial.accumulate(shipped.value(), 0, plan.program(), firstRow * rowElements, endRow * rowElements,
                    sourceOrigin);
            return 0;
        }
        long rowBytes = Math.max(1, rowElements * plan.dtype().byteWidth());
        long chunkRows = Math.max(1, CHUNK_BYTES / rowBytes);
        long bytesRead = 0;
        try (NpyRows file = npy == null ? null : openNpy(conf)) {
            for (long row = firstRow; row < endRow; row += chunkRows) {
                long end = Math.min(endRow, row + chunkRows);
                SourceRows rows = new SourceRows(row, end);
                SourceSlice slice;
                if (file != null) {
                    // one buffer for every chunk: a task allocates its chunk once, not per read
                    SourceTensor tensor = file.read(rows, true);
                    slice = new SourceSlice(rows, tensor, tensor.values().length);
                } else {
                    slice = DatasetSlices.read(dataset, rows, conf);
                }
                partial.accumulate(slice.tensor(), row * rowElements, plan.program(), row * rowElements,
                        end * rowElements, sourceOrigin);
                bytesRead += slice.bytesRead();
            }
        } catch (IOException e) {
            throw new InputException("Cannot read input '" + npy.location() + "': " + Reasons.of(e));
        }
        return bytesRead;
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
