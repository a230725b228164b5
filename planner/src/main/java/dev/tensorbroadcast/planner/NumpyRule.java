package dev.tensorbroadcast.planner;

import java.util.EnumSet;

/**
 * numpy: {@code np.broadcast_to(x, shape)} with a target, {@code np.broadcast_shapes(*inputs)} without one.
 * Right-aligned; each input dim equals the target's or is 1; the target has at least the input's rank and no negative
 * dims; 1 may broadcast to 0, and 0 only to 0.
 */
final class NumpyRule implements DialectRule {
    @Override
    public BroadcastPlan plan(BroadcastRequest request) {
        Rules.acceptOnly(request, EnumSet.of(Rules.Argument.TARGET));
        if (request.target().isEmpty()) {
            return BroadcastPlan.rightAligned(request, Rules.multidirectional("numpy", Rules.inputShapes(request)));
        }
        Shape input = Rules.requireSingleInput(request, "np.broadcast_to");
        Shape target = Rules.requireNonNegative(request, input, request.target().get());
        Rules.requireUnidirectional(request, input, target);
        return BroadcastPlan.rightAligned(request, target);
    }
}
