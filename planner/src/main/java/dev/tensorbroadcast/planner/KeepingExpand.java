package dev.tensorbroadcast.planner;

/**
 * The {@code expand} rule that PyTorch and Paddle share: right-aligned; {@code -1} keeps the input's dim, and is an
 * error in a new leading dim, where there is nothing to keep; other negatives are errors; a non-singleton input dim
 * must equal the target's.
 */
final class KeepingExpand {
    private KeepingExpand() {}

    static Shape expand(BroadcastRequest request, Shape input, TargetShape target) {
        Rules.requireRankAtMost(request, input, target, target.rank());
        int offset = target.rank() - input.rank();
        long[] out = new long[target.rank()];
        // right to left, as PyTorch checks, so the rightmost bad dim is the one reported
        for (int i = target.rank() - 1; i >= 0; i--) {
            long wanted = target.dim(i);
            if (wanted == -1 && i < offset) {
                throw new InvalidRequestException(Rules.prefix(request, input, target) + "dim " + i
                        + " of the target is -1, which is not allowed in a new leading dim (there is no input dim to"
                        + " keep); give a size of 0 or more there");
            }
            if (wanted < -1) {
                throw new InvalidRequestException(Rules.prefix(request, input, target) + "dim " + i
                        + " of the target is " + wanted + "; " + request.dialect()
                        + " accepts -1 (keep the input's dim) or a size of 0 or more");
            }
            if (i < offset) {
                out[i] = wanted;
                continue;
            }
            long in = input.dim(i - offset);
            if (wanted == -1 || wanted == in) {
                out[i] = in;
            } else if (in == 1) {
                out[i] = wanted;
            } else {
                throw new IncompatibleShapesException(Rules.prefix(request, input, target)
                        + Rules.describeAligned(i - offset, in, i, wanted) + "; a non-singleton dim cannot change (the"
                        + " target needs " + in + " or -1 there)");
            }
        }
        return Shape.of(out);
    }
}
