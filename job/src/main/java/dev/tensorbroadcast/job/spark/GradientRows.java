package dev.tensorbroadcast.job.spark;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.reduce.ReduceKernel;
import dev.tensorbroadcast.arrowio.source.DatasetSlices;
import dev.tensorbroadcast.arrowio.source.SourceSlice;
import dev.tensorbroadcast.arrowio.source.TensorDataset;
import dev.tensorbroadcast.planner.ReducePlan;
import dev.tensorbroadcast.planner.SourceRows;
import java.io.Serializable;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.broadcast.Broadcast;

/**
 * Where a reduce task reads the gradient: a tensor the driver read and shipped once as a broadcast variable, or a
 * dataset each task reads in chunks of rows, only the rows it sums. One of the two is set.
 */
public final class GradientRows implements Serializable {
    private static final long serialVersionUID = 1L;
    /** A task holds one chunk of gradient rows at a time: this many bytes, or one row when a row is larger. */
    static final long CHUNK_BYTES = 16L << 20;

    private final Broadcast<SourceTensor> shipped;
    private final TensorDataset dataset;

    private GradientRows(Broadcast<SourceTensor> shipped, TensorDataset dataset) {
        this.shipped = shipped;
        this.dataset = dataset;
    }

    /** Ships a tensor gradient once; a dataset gradient is read by the tasks. */
    static GradientRows open(LoadedSource gradient, org.apache.spark.api.java.JavaSparkContext spark) {
        return gradient.tensor() != null ? shipped(spark.broadcast(gradient.tensor())) : stored(gradient.dataset());
    }

    static GradientRows shipped(Broadcast<SourceTensor> tensor) {
        return new GradientRows(requireNonNull(tensor, "tensor is null"), null);
    }

    static GradientRows stored(TensorDataset dataset) {
        return new GradientRows(null, requireNonNull(dataset, "dataset is null"));
    }

    /**
     * Adds gradient rows {@code [firstRow, endRow)} into {@code partial}, which holds the result from element
     * {@code sourceOrigin} on, reading a dataset chunk by chunk. Returns the bytes read from files.
     */
    long reduce(ReducePlan plan, long firstRow, long endRow, ReduceKernel partial, long sourceOrigin,
            Configuration conf) {
        long rowElements = plan.outputRowElements();
        if (shipped != null) {
            partial.accumulate(shipped.value(), 0, plan.program(), firstRow * rowElements, endRow * rowElements,
                    sourceOrigin);
            return 0;
        }
        long rowBytes = Math.max(1, dataset.rowShape().elements() * dataset.dtype().byteWidth());
        long chunkRows = Math.max(1, CHUNK_BYTES / rowBytes);
        long bytesRead = 0;
        for (long row = firstRow; row < endRow; row += chunkRows) {
            long end = Math.min(endRow, row + chunkRows);
            SourceSlice slice = DatasetSlices.read(dataset, new SourceRows(row, end), conf);
            partial.accumulate(slice.tensor(), row * rowElements, plan.program(), row * rowElements,
                    end * rowElements, sourceOrigin);
            bytesRead += slice.bytesRead();
        }
        return bytesRead;
    }

    /** Frees the shipped tensor once the job is done. */
    void release() {
        if (shipped != null) {
            shipped.destroy();
        }
    }
}
