package dev.tensorbroadcast.job.source;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.planner.BroadcastPlan;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.ReducePlan;
import dev.tensorbroadcast.planner.Shape;

/**
 * How a job's tasks get their source: shipped whole to every executor as a Spark broadcast variable (a small source,
 * the classic broadcast), or read by each task in the slice its partition needs (a dataset larger than the ship
 * threshold).
 */
public sealed interface JobSource {
    DType dtype();

    Shape shape();

    /** {@code broadcast} or {@code slices}, as {@code plan} and the manifest name them. */
    String strategy();

    /** Makes what the tasks receive; {@link TaskSource#release} frees it after the job. */
    TaskSource open(Shipping spark);

    /**
     * The source on the driver's heap, shipped whole; a dataset's kept columns with it, as an Arrow IPC stream of all
     * its rows (or null when none are kept).
     */
    @SuppressWarnings("ArrayRecordComponent") // shipped to the tasks, never compared
    record Shipped(SourceTensor tensor, byte[] keptRows) implements JobSource {
        public Shipped {
            requireNonNull(tensor, "tensor is null");
        }

        public Shipped(SourceTensor tensor) {
            this(tensor, null);
        }

        @Override
        public DType dtype() {
            return tensor.dtype();
        }

        @Override
        public Shape shape() {
            return tensor.shape();
        }

        @Override
        public String strategy() {
            return "broadcast";
        }

        @Override
        public TaskSource open(Shipping spark) {
            return new TaskSource.FromBroadcast(
                    spark.broadcast(tensor), keptRows == null ? null : spark.broadcast(keptRows));
        }
    }

    /** A dataset whose rows each task reads for itself: input {@code input} of {@code plan}. */
    record Sliced(TensorDataset dataset, BroadcastPlan plan, int input) implements JobSource {
        public Sliced {
            requireNonNull(dataset, "dataset is null");
            requireNonNull(plan, "plan is null");
            if (!plan.input(input).input().equals(dataset.shape())) {
                throw new IllegalArgumentException("input " + input + " of " + plan + " is not " + dataset.shape());
            }
        }

        @Override
        public DType dtype() {
            return dataset.dtype();
        }

        @Override
        public Shape shape() {
            return dataset.shape();
        }

        @Override
        public String strategy() {
            return "slices";
        }

        @Override
        public TaskSource open(Shipping spark) {
            return new TaskSource.FromDataset(dataset, plan, input);
        }
    }

    /**
     * The result of a reduce whose gradient rows add only into their own result rows ({@code ROWS_KEPT}): each task
     * sums the gradient rows of its partition and writes its slice of the result; the whole result is never held.
     */
    record Reduced(Gradient gradient, ReducePlan plan) implements JobSource {
        public Reduced {
            requireNonNull(gradient, "gradient is null");
            requireNonNull(plan, "plan is null");
            if (!gradient.shape().equals(plan.output())) {
                throw new IllegalArgumentException("gradient " + gradient.shape() + " is not " + plan.output());
            }
        }

        @Override
        public DType dtype() {
            return plan.dtype();
        }

        @Override
        public Shape shape() {
            return plan.input();
        }

        @Override
        public String strategy() {
            return "reduce";
        }

        @Override
        public TaskSource open(Shipping spark) {
            return new TaskSource.FromReduction(GradientRows.open(gradient, spark), plan);
        }
    }
}
