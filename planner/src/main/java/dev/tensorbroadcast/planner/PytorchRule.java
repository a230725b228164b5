package dev.tensorbroadcast.planner;

import java.util.EnumSet;

/**
 * PyTorch: {@code Tensor.expand(*sizes)} with a target, {@code torch.broadcast_shapes(*inputs)} without one.
 * expand: right-aligned; {@code -1} keeps the input's dim, but not in a new leading dim; any other negative is an
 * error; a non-singleton input dim must equal the target's.
 */
final class PytorchRule implements DialectRule {
    @Override
    public BroadcastPlan plan(BroadcastRequest request) {
        Rules.acceptOnly(request, EnumSet.of(Rules.Argument.TARGET));
        if (request.target().isEmpty()) {
            return BroadcastPlan.rightAligned(request, Rules.multidirectional("pytorch", Rules.inputShapes(request)));
        }
        Shape input = Rules.requireSingleInput(request, "Tensor.expand");
        return BroadcastPlan.rightAligned(
                request, KeepingExpand.expand(request, input, request.target().get()));
    }
}
