package dev.tensorbroadcast.planner;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * nGraph {@code Broadcast(arg, shape, broadcast_axes)}: the broadcast axes are the new axes of the output; the arg's
 * shape must equal the target with those axes removed. Axes are in range and unique.
 */
final class NgraphRule implements DialectRule {
    @Override
    public BroadcastPlan plan(BroadcastRequest request) {
        Rules.acceptOnly(request, EnumSet.of(Rules.Argument.TARGET, Rules.Argument.BROADCAST_AXES));
        Shape input = Rules.requireSingleInput(request, "Broadcast");
        Shape target = Rules.requireNonNegative(request, input, Rules.requireTarget(request));
        List<Long> axes = request.broadcastAxes()
                .orElseThrow(() -> new InvalidRequestException(
                        Rules.prefix(request, input, target) + "ngraph needs the broadcast axes ("
                                + Param.BROADCAST_AXES.named() + "), the"
                                + " output axes that are new; [] if there are none"));
        boolean[] isNew = new boolean[target.rank()];
        for (long axis : axes) {
            if (axis < 0 || axis >= target.rank()) {
                throw new InvalidRequestException(Rules.prefix(request, input, target) + "broadcast axis " + axis
                        + " is out of range; axes must be from 0 to " + (target.rank() - 1) + " for a rank-"
                        + target.rank() + " output");
            }
            if (isNew[(int) axis]) {
                throw new InvalidRequestException(Rules.prefix(request, input, target) + "broadcast axis " + axis
                        + " is given twice in " + axes + "; each axis may appear once");
            }
            isNew[(int) axis] = true;
        }
        List<Long> required = new ArrayList<>();
        int[] kept = new int[target.rank() - axes.size()];
        int next = 0;
        for (int axis = 0; axis < target.rank(); axis++) {
            if (!isNew[axis]) {
                required.add(target.dim(axis));
                kept[next++] = axis;
            }
        }
        Shape expected = Shape.of(required.stream().mapToLong(Long::longValue).toArray());
        if (!expected.equals(input)) {
            throw new IncompatibleShapesException(Rules.prefix(request, input, target) + "with broadcast axes " + axes
                    + " the input must have shape " + expected + " (the target without those axes)");
        }
        return BroadcastPlan.of(request, target, List.of(InputBroadcast.mapped(input, kept)));
    }
}
