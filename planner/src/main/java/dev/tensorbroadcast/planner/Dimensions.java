package dev.tensorbroadcast.planner;

import java.io.Serializable;
import java.util.Arrays;

/**
 * A list of dimensions and how it prints: what a {@link Shape} and a {@link TargetShape} share. Which values a list may
 * hold is each subclass's rule; two lists are equal only when they are of the same kind.
 */
public abstract sealed class Dimensions implements Serializable permits Shape, TargetShape {
    private static final long serialVersionUID = 1L;

    final long[] dims;

    Dimensions(long[] dims) {
        this.dims = dims;
    }

    public final int rank() {
        return dims.length;
    }

    public final long dim(int axis) {
        return dims[axis];
    }

    public final long[] dims() {
        return dims.clone();
    }

    /** Bracket notation for command lines and JSON: {@code [2,3]}. */
    public final String toList() {
        return Dims.list(dims);
    }

    /** numpy's tuple notation: {@code (2,3)}, {@code (5,)}, {@code ()}. */
    @Override
    public final String toString() {
        return Dims.tuple(dims);
    }

    @Override
    @SuppressWarnings("EqualsGetClass") // a Shape never equals a TargetShape of the same numbers
    public final boolean equals(Object other) {
        return other != null && other.getClass() == getClass() && Arrays.equals(dims, ((Dimensions) other).dims);
    }

    @Override
    public final int hashCode() {
        return Arrays.hashCode(dims);
    }
}
