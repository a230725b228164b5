package dev.tensorbroadcast.arrowio.format.npy;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.io.Serializable;

/**
 * Where the rows of a C-order {@code .npy} of fixed-width numbers lie in its file, so that a task reads only its rows
 * ({@link NpyRows}).
 *
 * @param dataStart the offset of the first data byte
 * @param swapWidth the width of the byte groups to reverse for big-endian data (0 for little-endian)
 */
public record NpyLayout(DType dtype, Shape shape, long dataStart, int swapWidth) implements Serializable {
    public NpyLayout {
        requireNonNull(dtype, "dtype is null");
        requireNonNull(shape, "shape is null");
        if (!dtype.isFixedWidth() || dtype == DType.BOOL) {
            throw new IllegalArgumentException("rows of " + dtype + " are not read in place");
        }
    }

    public long rows() {
        return shape.rank() == 0 ? 1 : shape.dim(0);
    }

    public long rowBytes() {
        return (shape.rank() == 0 ? 1 : shape.product(1, shape.rank())) * dtype.byteWidth();
    }

    public long dataBytes() {
        return shape.elements() * dtype.byteWidth();
    }
}
