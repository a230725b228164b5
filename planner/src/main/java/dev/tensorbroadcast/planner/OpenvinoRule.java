package dev.tensorbroadcast.planner;

import java.util.EnumSet;
import java.util.List;

/**
 * OpenVINO {@code Broadcast-3} in its four modes (numpy by default):
 * <ul>
 *   <li>numpy: one-way, numpy's rule; the output is the target;</li>
 *   <li>bidirectional: as ONNX {@code Expand};</li>
 *   <li>explicit: input axis {@code i} lands on output axis {@code axes_mapping[i]}; the mapping has one sorted entry
 *       per input axis, each below the target's rank, and each mapped dim equals the input's or the input's is 1;</li>
 *   <li>pdpd: the input is aligned at output axis {@code axis} ({@code -1}: to the right); a 1 in the input takes the
 *       target's dim and a 1 in the target takes the input's.</li>
 * </ul>
 */
final class OpenvinoRule implements DialectRule {
    @Override
    public BroadcastPlan plan(BroadcastRequest request) {
        BroadcastMode mode = request.mode().orElse(BroadcastMode.NUMPY);
        Rules.acceptOnly(
                request,
                switch (mode) {
                    case EXPLICIT ->
                        EnumSet.of(Rules.Argument.TARGET, Rules.Argument.MODE, Rules.Argument.AXES_MAPPING);
                    case PDPD -> EnumSet.of(Rules.Argument.TARGET, Rules.Argument.MODE, Rules.Argument.AXIS);
                    default -> EnumSet.of(Rules.Argument.TARGET, Rules.Argument.MODE);
                });
        Shape input = Rules.requireSingleInput(request, "Broadcast");
        Shape target = Rules.requireNonNegative(request, input, Rules.requireTarget(request));
        return switch (mode) {
            case NUMPY -> numpy(request, input, target);
            case BIDIRECTIONAL -> BroadcastPlan.rightAligned(request, Bidirectional.broadcast(request, input, target));
            case EXPLICIT -> explicit(request, input, target);
            case PDPD -> pdpd(request, input, target);
        };
    }

    private static BroadcastPlan numpy(BroadcastRequest request, Shape input, Shape target) {
        Rules.requireUnidirectional(request, input, target);
        return BroadcastPlan.rightAligned(request, target);
    }

    private static BroadcastPlan explicit(BroadcastRequest request, Shape input, Shape target) {
        List<Long> mapping = request.axesMapping()
                .orElseThrow(() -> new InvalidRequestException(
                        Rules.prefix(request, input, target) + "explicit mode needs an axes mapping ("
                                + Param.AXES_MAPPING.named() + ") with one"
                                + " output axis for each of the input's " + input.rank() + " dims"));
        // OpenVINO counts a scalar with a one-entry mapping as rank 1: that entry must land on a target dim of 1
        boolean mappedScalar = input.rank() == 0 && mapping.size() == 1;
        if (mapping.size() != input.rank() && !mappedScalar) {
            throw new InvalidRequestException(Rules.prefix(request, input, target) + "the axes mapping " + mapping
                    + " has " + mapping.size() + " entries but the input has " + input.rank()
                    + " dims; give one output axis per input dim");
        }
        for (int i = 1; i < mapping.size(); i++) {
            if (mapping.get(i) <= mapping.get(i - 1)) {
                throw new InvalidRequestException(Rules.prefix(request, input, target) + "the axes mapping " + mapping
                        + " is not strictly increasing; broadcast does not transpose or repeat axes");
            }
        }
        int[] axes = new int[input.rank()];
        for (int i = 0; i < mapping.size(); i++) {
            long axis = mapping.get(i);
            if (axis < 0 || axis >= target.rank()) {
                throw new InvalidRequestException(Rules.prefix(request, input, target) + "axes mapping " + mapping
                        + " entry " + i + " is " + axis + "; each entry must be an output axis from 0 to "
                        + (target.rank() - 1));
            }
            long in = mappedScalar ? 1 : input.dim(i);
            long out = target.dim((int) axis);
            if (mappedScalar && out != 1) {
                throw new IncompatibleShapesException(Rules.prefix(request, input, target) + "the scalar input maps"
                        + " to target dim " + axis + ", which is " + out + "; a scalar can only map to a dim of 1");
            }
            if (in != out && in != 1) {
                throw new IncompatibleShapesException(Rules.prefix(request, input, target) + "input dim " + i
                        + " is " + in + " and maps to target dim " + axis + ", which is " + out
                        + "; the target needs " + in + " there, or the input 1");
            }
            if (!mappedScalar) {
                axes[i] = (int) axis;
            }
        }
        return BroadcastPlan.of(request, target, List.of(InputBroadcast.mapped(input, axes)));
    }

    private static BroadcastPlan pdpd(BroadcastRequest request, Shape input, Shape target) {
        long axis = request.axis().orElse(-1);
        if (axis < -1) {
            throw new InvalidRequestException(Rules.prefix(request, input, target) + "axis is " + axis
                    + "; pdpd mode takes -1 (align to the right) or an output axis of 0 or more");
        }
        long start = axis == -1 ? target.rank() - input.rank() : axis;
        if (start < 0 || start + input.rank() > target.rank()) {
            int lastStart = target.rank() - input.rank();
            throw new IncompatibleShapesException(Rules.prefix(request, input, target) + "the input's "
                    + input.rank() + " dims do not fit into the target's " + target.rank() + " dims from axis "
                    + start
                    + (lastStart >= 0
                            ? "; axis may be -1 or 0 to " + lastStart
                            : "; the target needs at least " + input.rank() + " dims"));
        }
        long[] out = target.dims();
        for (int i = 0; i < input.rank(); i++) {
            int at = (int) start + i;
            long in = input.dim(i);
            long wanted = target.dim(at);
            if (in == wanted || in == 1) {
                out[at] = wanted;
            } else if (wanted == 1) {
                out[at] = in;
            } else {
                throw new IncompatibleShapesException(Rules.prefix(request, input, target)
                        + Rules.describeAligned(i, in, at, wanted) + "; the target needs " + in + " or 1 there, or the"
                        + " input 1");
            }
        }
        return BroadcastPlan.of(request, Shape.of(out), List.of(InputBroadcast.alignedAt(input, (int) start)));
    }
}
