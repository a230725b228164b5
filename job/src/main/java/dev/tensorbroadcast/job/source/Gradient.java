package dev.tensorbroadcast.job.source;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.format.npy.NpyLayout;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;

/**
 * The gradient of a reduce as the driver found it: a tensor on its heap (shipped to the tasks once), a dataset whose
 * rows the tasks read in slices, or a large {@code .npy} whose rows the tasks read in place by offset.
 */
public sealed interface Gradient {
    Shape shape();

    DType dtype();

    /** {@code broadcast}, {@code slices} or {@code npy-rows}, as {@code reduce --dry-run} names them. */
    String strategy();

    record InMemory(SourceTensor tensor) implements Gradient {
        public InMemory {
            requireNonNull(tensor, "tensor is null");
        }

        @Override
        public Shape shape() {
            return tensor.shape();
        }

        @Override
        public DType dtype() {
            return tensor.dtype();
        }

        @Override
        public String strategy() {
            return "broadcast";
        }
    }

    record Stored(TensorDataset dataset) implements Gradient {
        public Stored {
            requireNonNull(dataset, "dataset is null");
        }

        @Override
        public Shape shape() {
            return dataset.shape();
        }

        @Override
        public DType dtype() {
            return dataset.dtype();
        }

        @Override
        public String strategy() {
            return "slices";
        }
    }

    /** A {@code .npy} at {@code location} (a path every executor can open: HDFS, or local on one machine). */
    record NpyFile(String location, NpyLayout layout) implements Gradient, java.io.Serializable {
        public NpyFile {
            requireNonNull(location, "location is null");
            requireNonNull(layout, "layout is null");
        }

        @Override
        public Shape shape() {
            return layout.shape();
        }

        @Override
        public DType dtype() {
            return layout.dtype();
        }

        @Override
        public String strategy() {
            return "npy-rows";
        }
    }
}
