package dev.tensorbroadcast.planner;

import java.io.Serializable;
import java.util.Arrays;

/**
 * The shape a user asks for. Unlike {@link Shape} it may hold negative values such as {@code -1} ("keep the input's
 * dim"): whether a value is allowed is the dialect's rule, so the dialect rejects it, with its own message.
 */
public final class TargetShape implements Serializable {
    private static final long serialVersionUID = 1L;

    private final long[] dims;

    private TargetShape(long[] dims) {
        this.dims = dims;
    }

    public static TargetShape of(long... dims) {
        if (dims.length > Shape.MAX_RANK) {
            throw new InvalidRequestException("Cannot create target shape of rank " + dims.length + ": at most "
                    + Shape.MAX_RANK + " dimensions are supported");
        }
        return new TargetShape(dims.clone());
    }

    public static TargetShape of(Shape shape) {
        return new TargetShape(shape.dims());
    }

    public static TargetShape parse(String text) {
        return of(Dims.parse(text, "target shape"));
    }

    public int rank() {
        return dims.length;
    }

    public long dim(int axis) {
        return dims[axis];
    }

    public long[] dims() {
        return dims.clone();
    }

    /** The first axis holding a negative value, or -1 when every value is 0 or more. */
    public int firstNegativeAxis() {
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] < 0) {
                return i;
            }
        }
        return -1;
    }

    /** This target as a concrete shape; the caller has checked that no value is negative. */
    public Shape toShape() {
        return Shape.of(dims);
    }

    public String toList() {
        return Dims.list(dims);
    }

    @Override
    public String toString() {
        return Dims.tuple(dims);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof TargetShape target && Arrays.equals(dims, target.dims);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(dims);
    }
}
