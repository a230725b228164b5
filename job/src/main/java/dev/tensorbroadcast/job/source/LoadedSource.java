package dev.tensorbroadcast.job.source;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;

/**
 * A source as the driver found it: a tensor read onto the heap (a {@code .npy} or Arrow IPC file), or a dataset
 * directory of which only the footers were read. Exactly one of the two is set.
 */
public record LoadedSource(SourceTensor tensor, TensorDataset dataset) {
    public LoadedSource {
        if ((tensor == null) == (dataset == null)) {
            throw new IllegalArgumentException("a source is a tensor or a dataset");
        }
    }

    public static LoadedSource of(SourceTensor tensor) {
        return new LoadedSource(tensor, null);
    }

    public static LoadedSource of(TensorDataset dataset) {
        return new LoadedSource(null, dataset);
    }

    public Shape shape() {
        return tensor != null ? tensor.shape() : dataset.shape();
    }

    public DType dtype() {
        return tensor != null ? tensor.dtype() : dataset.dtype();
    }

    /** Bits per element for sizing partitions: strings by their real average length. */
    public long sizingBits() {
        return tensor != null ? tensor.sizingBits() : dataset.dtype().sizingBits();
    }
}
