package dev.tensorbroadcast.planner;

import java.util.Arrays;

/**
 * The shape of a concrete tensor: a list of non-negative dimensions, row-major. Immutable.
 *
 * <p>The rank is limited to {@value #MAX_RANK}, numpy's limit, which no framework we follow exceeds in practice.
 */
public final class Shape extends Dimensions {
    private static final long serialVersionUID = 2L;

    /** numpy's {@code NPY_MAXDIMS} since numpy 2.0. */
    public static final int MAX_RANK = 64;

    private static final Shape SCALAR = new Shape(new long[0]);

    private Shape(long[] dims) {
        super(dims);
    }

    public static Shape of(long... dims) {
        if (dims.length == 0) {
            return SCALAR;
        }
        if (dims.length > MAX_RANK) {
            throw new InvalidRequestException("Cannot create shape of rank " + dims.length + ": at most " + MAX_RANK
                    + " dimensions are supported");
        }
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] < 0) {
                throw new InvalidRequestException("Cannot create shape " + Dims.tuple(dims) + ": dim " + i + " is "
                        + dims[i] + "; a tensor's dimensions are 0 or more");
            }
        }
        return new Shape(dims.clone());
    }

    public static Shape scalar() {
        return SCALAR;
    }

    /** Parses {@code [2,3]}, {@code 2,3} or {@code []}; every dimension must be 0 or more. */
    public static Shape parse(String text) {
        return of(Dims.parse(text, "shape"));
    }

    public boolean isScalar() {
        return dims.length == 0;
    }

    /** The number of elements; a count that does not fit a {@code long} is rejected, never wrapped. */
    public long elements() {
        return product(0, dims.length);
    }

    /** The product of the dimensions in {@code [from, to)}, checked for overflow. */
    public long product(int from, int to) {
        long product = 1;
        for (int i = from; i < to; i++) {
            if (dims[i] == 0) {
                return 0;
            }
        }
        for (int i = from; i < to; i++) {
            try {
                product = Math.multiplyExact(product, dims[i]);
            } catch (ArithmeticException e) {
                throw new TooLargeException(
                        "Cannot count the elements of shape " + this + ": the count exceeds " + Long.MAX_VALUE);
            }
        }
        return product;
    }

    /** The dims in {@code [from, to)} as a shape. */
    public Shape slice(int from, int to) {
        return of(Arrays.copyOfRange(dims, from, to));
    }

    /** Row-major strides in elements. */
    public long[] strides() {
        long[] strides = new long[dims.length];
        long stride = 1;
        for (int i = dims.length - 1; i >= 0; i--) {
            strides[i] = stride;
            stride = stride * Math.max(dims[i], 1);
        }
        return strides;
    }

    private Object readResolve() {
        // a deserialized shape must hold the same invariants as a constructed one
        return of(dims);
    }
}
