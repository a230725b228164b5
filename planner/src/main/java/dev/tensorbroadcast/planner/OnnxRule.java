package dev.tensorbroadcast.planner;

import java.util.EnumSet;

/**
 * ONNX {@code Expand} (opsets 8 and 13): the output is {@code broadcast(input.shape, shape)} in both directions, as
 * {@code input * ones(shape)} would be. So {@code shape} may be shorter than the input, and a 1 in it keeps the
 * input's dim, even a 0.
 */
final class OnnxRule implements DialectRule {
    @Override
    public BroadcastPlan plan(BroadcastRequest request) {
        Rules.acceptOnly(request, EnumSet.of(Rules.Argument.TARGET));
        Shape input = Rules.requireSingleInput(request, "Expand");
        TargetShape target = Rules.requireTarget(request);
        Shape shape = Rules.requireNonNegative(request, input, target);
        return BroadcastPlan.rightAligned(request, Bidirectional.broadcast(request, input, shape));
    }
}
