package dev.tensorbroadcast.job.cli;

import java.util.List;
import java.util.Optional;

/**
 * The output shape each framework gives a request, or empty when it refuses it, written here from the frameworks'
 * documented rules (docs/dialects.md), apart from the planner's code: the oracle the zero-size properties hold the
 * command line to. Shapes are plain {@code long[]}; a target may hold {@code -1}.
 */
final class FrameworkShapes {
    private FrameworkShapes() {}

    static Optional<long[]> output(ZeroSizeRequest request) {
        List<long[]> inputs = request.inputs();
        long[] target = request.target();
        if (target == null) {
            // numpy, pytorch, paddle without a target: broadcast_shapes of the inputs
            return together(inputs);
        }
        if (inputs.size() != 1) {
            return Optional.empty();
        }
        long[] x = inputs.get(0);
        return switch (request.dialect()) {
            case "numpy" -> broadcastTo(x, target);
            case "pytorch" -> expand(x, target);
            case "paddle" -> target.length == 0 ? Optional.of(x) : expand(x, target);
            case "mindspore" -> mindspore(x, target);
            case "onnx" -> bidirectional(x, target);
            case "openvino" ->
                switch (request.mode()) {
                    case "numpy" -> broadcastTo(x, target);
                    case "bidirectional" -> bidirectional(x, target);
                    case "explicit" -> explicit(x, target, request.axes());
                    case "pdpd" -> pdpd(x, target, request.axis());
                    default -> throw new IllegalArgumentException(request.mode());
                };
            case "ngraph" -> ngraph(x, target, request.axes());
            default -> throw new IllegalArgumentException(request.dialect());
        };
    }

    /** {@code np.broadcast_shapes}: per right-aligned axis, all dims other than 1 agree. */
    static Optional<long[]> together(List<long[]> shapes) {
        int rank = shapes.stream().mapToInt(shape -> shape.length).max().orElse(0);
        long[] out = new long[rank];
        java.util.Arrays.fill(out, 1);
        for (long[] shape : shapes) {
            for (int i = 0; i < shape.length; i++) {
                int at = rank - shape.length + i;
                long dim = shape[i];
                if (dim == 1) {
                    continue;
                }
                if (out[at] != 1 && out[at] != dim) {
                    return Optional.empty();
                }
                out[at] = dim;
            }
        }
        return Optional.of(out);
    }

    /** {@code np.broadcast_to}: the target itself, each right-aligned input dim equal to it or 1. */
    private static Optional<long[]> broadcastTo(long[] x, long[] t) {
        if (negative(t) || t.length < x.length) {
            return Optional.empty();
        }
        int off = t.length - x.length;
        for (int i = 0; i < x.length; i++) {
            if (x[i] != t[off + i] && x[i] != 1) {
                return Optional.empty();
            }
        }
        return Optional.of(t.clone());
    }

    /** {@code Tensor.expand}: -1 keeps the input's dim (not on a new dim); a dim other than 1 cannot change. */
    private static Optional<long[]> expand(long[] x, long[] t) {
        if (t.length < x.length) {
            return Optional.empty();
        }
        int off = t.length - x.length;
        long[] out = new long[t.length];
        for (int i = 0; i < t.length; i++) {
            if (i < off) {
                if (t[i] < 0) {
                    return Optional.empty();
                }
                out[i] = t[i];
                continue;
            }
            long dim = x[i - off];
            if (t[i] == -1) {
                out[i] = dim;
            } else if (t[i] < 0 || (dim != t[i] && dim != 1)) {
                return Optional.empty();
            } else {
                out[i] = t[i];
            }
        }
        return Optional.of(out);
    }

    /** {@code ops.broadcast_to} (2.x): as expand, and a 0 in the target needs a 0 in the input already. */
    private static Optional<long[]> mindspore(long[] x, long[] t) {
        boolean targetZero = java.util.Arrays.stream(t).anyMatch(dim -> dim == 0);
        boolean inputZero = java.util.Arrays.stream(x).anyMatch(dim -> dim == 0);
        if (targetZero && !inputZero) {
            return Optional.empty();
        }
        return expand(x, t);
    }

    /** ONNX {@code Expand}: the two-way broadcast of the input and the target, which holds no negative dim. */
    private static Optional<long[]> bidirectional(long[] x, long[] t) {
        return negative(t) ? Optional.empty() : together(List.of(x, t));
    }

    /** OpenVINO explicit: input axis i lands on target axis A[i] (increasing); each there equal or 1. */
    private static Optional<long[]> explicit(long[] x, long[] t, long[] axes) {
        if (negative(t) || axes == null) {
            return Optional.empty();
        }
        boolean mappedScalar = x.length == 0 && axes.length == 1;
        if (axes.length != x.length && !mappedScalar) {
            return Optional.empty();
        }
        for (int i = 0; i < axes.length; i++) {
            if (axes[i] < 0 || axes[i] >= t.length || (i > 0 && axes[i] <= axes[i - 1])) {
                return Optional.empty();
            }
            long in = mappedScalar ? 1 : x[i];
            long out = t[(int) axes[i]];
            if ((mappedScalar && out != 1) || (in != out && in != 1)) {
                return Optional.empty();
            }
        }
        return Optional.of(t.clone());
    }

    /** OpenVINO pdpd: the input aligned at axis K (-1: right); a 1 on either side takes the other's dim. */
    private static Optional<long[]> pdpd(long[] x, long[] t, Long axis) {
        long k = axis == null ? -1 : axis;
        if (negative(t) || k < -1) {
            return Optional.empty();
        }
        long start = k == -1 ? t.length - x.length : k;
        if (start < 0 || start + x.length > t.length) {
            return Optional.empty();
        }
        long[] out = t.clone();
        for (int i = 0; i < x.length; i++) {
            int at = (int) start + i;
            if (x[i] == t[at] || x[i] == 1) {
                out[at] = t[at];
            } else if (t[at] == 1) {
                out[at] = x[i];
            } else {
                return Optional.empty();
            }
        }
        return Optional.of(out);
    }

    /** nGraph v0 {@code Broadcast}: the input is the target without the (distinct, in-range) broadcast axes. */
    private static Optional<long[]> ngraph(long[] x, long[] t, long[] axes) {
        if (negative(t) || axes == null) {
            return Optional.empty();
        }
        boolean[] isNew = new boolean[t.length];
        for (long axis : axes) {
            if (axis < 0 || axis >= t.length || isNew[(int) axis]) {
                return Optional.empty();
            }
            isNew[(int) axis] = true;
        }
        long[] rest = new long[t.length - axes.length];
        int next = 0;
        for (int i = 0; i < t.length; i++) {
            if (!isNew[i]) {
                rest[next++] = t[i];
            }
        }
        return java.util.Arrays.equals(rest, x) ? Optional.of(t.clone()) : Optional.empty();
    }

    private static boolean negative(long[] t) {
        return java.util.Arrays.stream(t).anyMatch(dim -> dim < 0);
    }
}
