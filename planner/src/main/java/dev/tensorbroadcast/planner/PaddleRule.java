package dev.tensorbroadcast.planner;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Paddle: {@code paddle.expand} / {@code paddle.broadcast_to} with one input and a target ({@code -1} keeps the
 * input's dim; an empty target keeps the input's shape), {@code paddle.broadcast_tensors} of the inputs without one
 * (numpy's rule; all inputs one dtype, from the dtypes Paddle accepts, bfloat16 included). Paddle limits
 * {@code expand} to rank 8 and documents rank 5 for {@code broadcast_tensors}; we go up to 64.
 */
final class PaddleRule implements DialectRule {
    /** The dtypes {@code paddle.broadcast_tensors} documents. */
    static final Set<DType> BROADCAST_TENSORS_DTYPES = EnumSet.of(
            DType.BOOL,
            DType.FLOAT16,
            DType.BFLOAT16,
            DType.FLOAT32,
            DType.FLOAT64,
            DType.INT32,
            DType.INT64,
            DType.COMPLEX64,
            DType.COMPLEX128);

    @Override
    public BroadcastPlan plan(BroadcastRequest request) {
        Rules.acceptOnly(request, EnumSet.of(Rules.Argument.TARGET));
        if (request.target().isPresent()) {
            Shape input = Rules.requireSingleInput(request, "paddle.expand");
            TargetShape target = request.target().get();
            if (target.rank() == 0) {
                // paddle.expand reads an empty shape as "keep every dim": -1 for each of the input's dims
                return BroadcastPlan.rightAligned(request, input);
            }
            return BroadcastPlan.rightAligned(request, KeepingExpand.expand(request, input, target));
        }
        checkDtypes(request.inputs());
        return BroadcastPlan.rightAligned(request, Rules.multidirectional("paddle", Rules.inputShapes(request)));
    }

    private static void checkDtypes(List<TensorSpec> inputs) {
        DType first = inputs.get(0).dtype();
        for (int i = 0; i < inputs.size(); i++) {
            DType dtype = inputs.get(i).dtype();
            if (!BROADCAST_TENSORS_DTYPES.contains(dtype)) {
                throw new InvalidRequestException("Cannot broadcast tensors [paddle]: input " + i + " has dtype "
                        + dtype + "; paddle.broadcast_tensors takes " + names(BROADCAST_TENSORS_DTYPES));
            }
            if (dtype != first) {
                throw new InvalidRequestException("Cannot broadcast tensors [paddle]: input 0 is " + first
                        + " but input " + i + " is " + dtype + "; paddle.broadcast_tensors needs one dtype for all");
            }
        }
    }

    private static String names(Set<DType> dtypes) {
        return String.join(", ", dtypes.stream().map(DType::typeName).toList());
    }
}
