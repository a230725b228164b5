package dev.tensorbroadcast.planner;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.util.Arrays;

/**
 * How one input lands in the output: input axis {@code i} is output axis {@code outputAxes[i]}; every other output
 * axis is new. Along an output axis the input is either the same size or 1 (repeated).
 */
public final class InputBroadcast implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Shape input;
    private final int[] outputAxes;

    private InputBroadcast(Shape input, int[] outputAxes) {
        this.input = requireNonNull(input, "input is null");
        if (outputAxes.length != input.rank()) {
            throw new IllegalArgumentException("outputAxes has " + outputAxes.length + " entries for input " + input);
        }
        for (int i = 1; i < outputAxes.length; i++) {
            if (outputAxes[i] <= outputAxes[i - 1]) {
                throw new IllegalArgumentException("outputAxes must increase: " + Arrays.toString(outputAxes));
            }
        }
        if (outputAxes.length > 0 && outputAxes[0] < 0) {
            throw new IllegalArgumentException("outputAxes must be non-negative: " + Arrays.toString(outputAxes));
        }
        this.outputAxes = outputAxes;
    }

    /** numpy's alignment: the input's axes are the output's last axes. */
    public static InputBroadcast rightAligned(Shape input, int outputRank) {
        return alignedAt(input, outputRank - input.rank());
    }

    /** The input's axes are output axes {@code start, start+1, ...}. */
    public static InputBroadcast alignedAt(Shape input, int start) {
        int[] axes = new int[input.rank()];
        for (int i = 0; i < axes.length; i++) {
            axes[i] = start + i;
        }
        return new InputBroadcast(input, axes);
    }

    public static InputBroadcast mapped(Shape input, int[] outputAxes) {
        return new InputBroadcast(input, outputAxes.clone());
    }

    public Shape input() {
        return input;
    }

    public int[] outputAxes() {
        return outputAxes.clone();
    }

    /** Checks that this input fits {@code output}: mapped axes in range and each dim equal or 1. */
    void checkFits(Shape output) {
        for (int i = 0; i < outputAxes.length; i++) {
            int axis = outputAxes[i];
            if (axis >= output.rank()) {
                throw new IllegalArgumentException("input axis " + i + " maps to axis " + axis + " outside " + output);
            }
            long dim = input.dim(i);
            if (dim != 1 && dim != output.dim(axis)) {
                throw new IllegalArgumentException(
                        "input " + input + " does not fit output " + output + " at axis " + axis);
            }
        }
    }

    /**
     * Strides in source elements for each output axis: the input's row-major stride where the input has the axis
     * with its full size, 0 where the axis is new or the input's dim is 1 (the value repeats).
     */
    public long[] sourceStrides(Shape output) {
        long[] inputStrides = input.strides();
        long[] strides = new long[output.rank()];
        for (int i = 0; i < outputAxes.length; i++) {
            if (input.dim(i) != 1) {
                strides[outputAxes[i]] = inputStrides[i];
            }
        }
        return strides;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof InputBroadcast that
                && input.equals(that.input)
                && Arrays.equals(outputAxes, that.outputAxes);
    }

    @Override
    public int hashCode() {
        return 31 * input.hashCode() + Arrays.hashCode(outputAxes);
    }

    @Override
    public String toString() {
        return input + "->axes" + Arrays.toString(outputAxes);
    }
}
