package dev.tensorbroadcast.job.source;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.format.npy.NpyLayout;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.util.OptionalLong;

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

    /**
     * A dataset read as a tensor of {@code shape}: its rows, then its row shape, or a shape whose leading dims its
     * rows flatten in C order (a dataset of ours cut below the first dim, whose manifest keeps the shape it was
     * written as: {@code [3,40,64]} as 120 rows of {@code [64]}).
     */
    record Stored(TensorDataset dataset, Shape shape) implements Gradient {
        public Stored {
            requireNonNull(dataset, "dataset is null");
            requireNonNull(shape, "shape is null");
            if (!shape.equals(dataset.shape())
                    && datasetRowsPerRow(dataset, shape).isEmpty()) {
                throw new IllegalArgumentException("a dataset of " + dataset.rows() + " rows of " + dataset.rowShape()
                        + " cannot be read as " + shape);
            }
        }

        public Stored(TensorDataset dataset) {
            this(dataset, dataset.shape());
        }

        /** The dataset's rows in one row of {@link #shape}: 1 where the shape is the dataset's own. */
        public long datasetRowsPerRow() {
            return shape.equals(dataset.shape())
                    ? 1
                    : datasetRowsPerRow(dataset, shape).orElseThrow();
        }

        /**
         * How many of the dataset's rows one row of {@code shape} holds, where {@code shape} is the dataset's row
         * shape after leading dims whose product is the dataset's row count (or a scalar written as one row);
         * empty otherwise.
         */
        public static OptionalLong datasetRowsPerRow(TensorDataset dataset, Shape shape) {
            if (shape.isScalar() && dataset.rowShape().isScalar() && dataset.rows() == 1) {
                // a scalar written as one row of one value: a scalar's plan has that one row
                return OptionalLong.of(1);
            }
            int leading = shape.rank() - dataset.rowShape().rank();
            if (leading < 1
                    || !shape.slice(leading, shape.rank()).equals(dataset.rowShape())
                    || shape.product(0, leading) != dataset.rows()) {
                return OptionalLong.empty();
            }
            return OptionalLong.of(shape.product(1, leading));
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
