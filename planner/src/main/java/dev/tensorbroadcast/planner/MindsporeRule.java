package dev.tensorbroadcast.planner;

import java.util.EnumSet;

/**
 * MindSpore 2.x {@code ops.broadcast_to(input, shape)}: right-aligned; a {@code -1} in the target keeps the input's
 * dim at that position (even a 1); a {@code -1} in the extra leading dims has no input dim to keep and is an error;
 * otherwise each input dim equals the target's or is 1. A 0 in the target is only allowed for an input that already
 * has a 0-size dim.
 */
final class MindsporeRule implements DialectRule {
    @Override
    public BroadcastPlan plan(BroadcastRequest request) {
        Rules.acceptOnly(request, EnumSet.of(Rules.Argument.TARGET));
        Shape input = Rules.requireSingleInput(request, "ops.broadcast_to");
        TargetShape target = Rules.requireTarget(request);
        Rules.requireRankAtMost(request, input, target, target.rank());
        int zero = firstZero(target);
        if (zero >= 0 && input.elements() != 0) {
            // MindSpore checks this before it resolves -1, and even where the input dim is 1
            throw new IncompatibleShapesException(Rules.prefix(request, input, target) + "dim " + zero
                    + " of the target is 0 but the input has no 0-size dim; mindspore only allows a 0 in the target"
                    + " for an empty input");
        }
        int offset = target.rank() - input.rank();
        for (int i = 0; i < offset; i++) {
            if (target.dim(i) == -1) {
                throw new InvalidRequestException(Rules.prefix(request, input, target) + "dim " + i
                        + " of the target is -1 but the input has no dim there to keep; -1 is only allowed from dim "
                        + offset + " on");
            }
        }
        long[] out = new long[target.rank()];
        for (int i = 0; i < target.rank(); i++) {
            long wanted = target.dim(i);
            if (wanted < -1) {
                throw new InvalidRequestException(Rules.prefix(request, input, target) + "dim " + i
                        + " of the target is " + wanted + "; mindspore accepts -1 or a size of 0 or more");
            }
            if (i < offset) {
                out[i] = wanted;
                continue;
            }
            long in = input.dim(i - offset);
            if (wanted == -1) {
                out[i] = in;
            } else if (wanted == in || in == 1) {
                out[i] = wanted;
            } else {
                throw new IncompatibleShapesException(Rules.prefix(request, input, target)
                        + Rules.describeAligned(i - offset, in, i, wanted) + "; the target needs " + in
                        + ", 1 in the input, or -1 there");
            }
        }
        return BroadcastPlan.rightAligned(request, Shape.of(out));
    }

    private static int firstZero(TargetShape target) {
        for (int i = 0; i < target.rank(); i++) {
            if (target.dim(i) == 0) {
                return i;
            }
        }
        return -1;
    }
}
