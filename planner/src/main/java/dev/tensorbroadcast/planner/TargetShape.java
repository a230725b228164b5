package dev.tensorbroadcast.planner;

/**
 * The shape a user asks for. Unlike {@link Shape} it may hold negative values such as {@code -1} ("keep the input's
 * dim"): whether a value is allowed is the dialect's rule, so the dialect rejects it, with its own message.
 */
public final class TargetShape extends Dimensions {
    private static final long serialVersionUID = 2L;

    private TargetShape(long[] dims) {
        super(dims);
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
}
