package dev.tensorbroadcast.planner;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** Checks and shape arithmetic that several dialects share. Each dialect's own rule stays in its own class. */
final class Rules {
    /** The arguments a request may carry; each dialect accepts a subset. */
    enum Argument {
        TARGET("a target shape (" + Param.SHAPE.named() + ")"),
        MODE("a mode (" + Param.MODE.named() + ")"),
        AXES_MAPPING("an axes mapping (" + Param.AXES_MAPPING.named() + ")"),
        BROADCAST_AXES("broadcast axes (" + Param.BROADCAST_AXES.named() + ")"),
        AXIS("an axis (" + Param.AXIS.named() + ")");

        private final String description;

        Argument(String description) {
            this.description = description;
        }
    }

    private Rules() {}

    /** Rejects every argument the dialect does not take, naming the ones it does. */
    static void acceptOnly(BroadcastRequest request, Set<Argument> accepted) {
        EnumSet<Argument> given = EnumSet.noneOf(Argument.class);
        request.target().ifPresent(t -> given.add(Argument.TARGET));
        request.mode().ifPresent(m -> given.add(Argument.MODE));
        request.axesMapping().ifPresent(a -> given.add(Argument.AXES_MAPPING));
        request.broadcastAxes().ifPresent(a -> given.add(Argument.BROADCAST_AXES));
        request.axis().ifPresent(a -> given.add(Argument.AXIS));
        for (Argument argument : given) {
            if (!accepted.contains(argument)) {
                throw new InvalidRequestException("Cannot plan a broadcast [" + request.dialect() + "]: "
                        + request.dialect() + " takes no " + argument.description.replaceFirst("^an? ", "")
                        + "; it takes " + describe(accepted));
            }
        }
    }

    private static String describe(Set<Argument> accepted) {
        if (accepted.isEmpty()) {
            return "only input shapes";
        }
        return String.join(", ", accepted.stream().map(a -> a.description).toList());
    }

    /** The request's target shape; the dialect needs one. */
    static TargetShape requireTarget(BroadcastRequest request) {
        return request.target()
                .orElseThrow(() -> new InvalidRequestException("Cannot plan a broadcast ["
                        + request.dialect() + "]: " + request.dialect() + " needs a target shape ("
                        + Param.SHAPE.named()
                        + ")"));
    }

    /** The single input of a one-input operation such as {@code broadcast_to} or {@code Expand}. */
    static Shape requireSingleInput(BroadcastRequest request, String operation) {
        if (request.inputs().size() != 1) {
            throw new InvalidRequestException("Cannot plan a broadcast [" + request.dialect() + "]: " + operation
                    + " takes exactly one input, got " + request.inputs().size() + " input shapes");
        }
        return request.input(0).shape();
    }

    /** A target whose values must all be 0 or more. */
    static Shape requireNonNegative(BroadcastRequest request, Shape input, TargetShape target) {
        int axis = target.firstNegativeAxis();
        if (axis >= 0) {
            throw new InvalidRequestException(prefix(request, input, target) + "dim " + axis + " of the target is "
                    + target.dim(axis) + "; " + request.dialect() + " accepts only dims of 0 or more here");
        }
        return target.toShape();
    }

    /** "Cannot broadcast (2,3) to (4,3) [numpy]: " */
    static String prefix(BroadcastRequest request, Shape input, Object target) {
        return "Cannot broadcast " + input + " to " + target + " [" + label(request) + "]: ";
    }

    static String label(BroadcastRequest request) {
        return request.mode()
                .map(mode -> request.dialect() + " " + mode)
                .orElse(request.dialect().dialectName());
    }

    static void requireRankAtMost(BroadcastRequest request, Shape input, Object target, int targetRank) {
        if (input.rank() > targetRank) {
            throw new IncompatibleShapesException(prefix(request, input, target) + "the input has " + input.rank()
                    + " dims but the target only " + targetRank + "; the target needs at least " + input.rank()
                    + " dims");
        }
    }

    /**
     * numpy's one-way rule: input right-aligned to the target, each input dim equal to the target's or 1. The target
     * is already checked to be non-negative.
     */
    static void requireUnidirectional(BroadcastRequest request, Shape input, Shape target) {
        requireRankAtMost(request, input, target, target.rank());
        int offset = target.rank() - input.rank();
        for (int i = 0; i < input.rank(); i++) {
            long in = input.dim(i);
            long out = target.dim(offset + i);
            if (in != out && in != 1) {
                throw new IncompatibleShapesException(prefix(request, input, target)
                        + describeAligned(i, in, offset + i, out) + "; only 1 can grow (the input needs "
                        + (out == 1 ? "1" : out + " or 1") + " there)");
            }
        }
    }

    static String describeAligned(int inputAxis, long inputDim, int targetAxis, long targetDim) {
        if (inputAxis == targetAxis) {
            return "dim " + targetAxis + " is " + inputDim + " in the input and " + targetDim + " in the target";
        }
        return "input dim " + inputAxis + " is " + inputDim + " and target dim " + targetAxis + " is " + targetDim;
    }

    /**
     * numpy's {@code broadcast_shapes}: all shapes right-aligned; along each axis the sizes are equal or 1, and a 1
     * takes the other size (0 included).
     */
    static Shape multidirectional(String label, List<Shape> shapes) {
        int rank = 0;
        for (Shape shape : shapes) {
            rank = Math.max(rank, shape.rank());
        }
        long[] out = new long[rank];
        int[] owner = new int[rank];
        java.util.Arrays.fill(out, 1);
        java.util.Arrays.fill(owner, -1);
        for (int s = 0; s < shapes.size(); s++) {
            Shape shape = shapes.get(s);
            int offset = rank - shape.rank();
            for (int i = 0; i < shape.rank(); i++) {
                long dim = shape.dim(i);
                int axis = offset + i;
                if (dim == 1 || dim == out[axis]) {
                    if (owner[axis] < 0 && dim != 1) {
                        owner[axis] = s;
                    }
                    continue;
                }
                if (out[axis] != 1) {
                    throw new IncompatibleShapesException("Cannot broadcast " + joinShapes(shapes) + " together ["
                            + label + "]: output dim " + axis + " is " + out[axis] + " in input " + owner[axis] + " "
                            + shapes.get(owner[axis]) + " and " + dim + " in input " + s + " " + shape
                            + "; sizes must be equal or 1");
                }
                out[axis] = dim;
                owner[axis] = s;
            }
        }
        return Shape.of(out);
    }

    static String joinShapes(List<Shape> shapes) {
        if (shapes.size() == 2) {
            return shapes.get(0) + " and " + shapes.get(1);
        }
        return String.join(", ", shapes.stream().map(Shape::toString).toList());
    }

    static List<Shape> inputShapes(BroadcastRequest request) {
        return request.inputs().stream().map(TensorSpec::shape).toList();
    }
}
