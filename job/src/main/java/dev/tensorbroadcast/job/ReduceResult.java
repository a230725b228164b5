package dev.tensorbroadcast.job;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.ReducePlan;
import dev.tensorbroadcast.planner.Shape;

/**
 * One reduced input as written.
 *
 * @param location the {@code .npy} file or dataset directory, qualified
 * @param input the forward input this result is the gradient of
 * @param tasks the tasks that read the gradient
 * @param bytes the bytes of the result's values
 */
public record ReduceResult(
        String location,
        int input,
        Shape shape,
        DType dtype,
        ReducePlan.Regime regime,
        String format,
        long tasks,
        long bytes) {
    /** Refuses a null location, shape, dtype, regime or format. */
    public ReduceResult {
        requireNonNull(location, "location is null");
        requireNonNull(shape, "shape is null");
        requireNonNull(dtype, "dtype is null");
        requireNonNull(regime, "regime is null");
        requireNonNull(format, "format is null");
    }
}
