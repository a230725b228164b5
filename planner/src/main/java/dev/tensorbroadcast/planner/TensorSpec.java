package dev.tensorbroadcast.planner;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;

/** One source tensor as the planner sees it: its shape and element type, no data. */
public record TensorSpec(Shape shape, DType dtype) implements Serializable {
    public TensorSpec {
        requireNonNull(shape, "shape is null");
        requireNonNull(dtype, "dtype is null");
    }
}
