package dev.tensorbroadcast.job;

import dev.tensorbroadcast.planner.BroadcastMode;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.TargetShape;
import java.util.List;

/**
 * The part of a request's builder that says the forward broadcast's rule: the dialect and its arguments besides the
 * inputs. {@link TensorBroadcast.Builder} and {@link TensorReduce.Builder} share it, so a broadcast and its adjoint
 * are said the same way. Which arguments a dialect takes is checked when the request is built.
 *
 * @param <B> the builder, returned by every setter for chaining
 */
public abstract class DialectBuilder<B extends DialectBuilder<B>> {
    DialectArguments arguments = DialectArguments.NONE;

    DialectBuilder() {}

    /** The framework whose rule applies ({@code --dialect}); required. */
    public final B dialect(Dialect dialect) {
        arguments = arguments.withDialect(dialect);
        return self();
    }

    /** The target shape ({@code --shape}); a dialect may allow {@code -1} to keep an input's dim. */
    public final B shape(TargetShape shape) {
        arguments = arguments.withShape(shape);
        return self();
    }

    /** The target shape from its dims, as {@link #shape(TargetShape)}. */
    public final B shape(long... dims) {
        return shape(TargetShape.of(dims));
    }

    /** OpenVINO's broadcast mode ({@code --mode}). */
    public final B mode(BroadcastMode mode) {
        arguments = arguments.withMode(mode);
        return self();
    }

    /** OpenVINO's explicit mode: the output axis of each input axis ({@code --axes-mapping}). */
    public final B axesMapping(List<Long> axes) {
        arguments = arguments.withAxesMapping(axes);
        return self();
    }

    /** nGraph's new output axes ({@code --broadcast-axes}). */
    public final B broadcastAxes(List<Long> axes) {
        arguments = arguments.withBroadcastAxes(axes);
        return self();
    }

    /** OpenVINO's pdpd mode: the output axis the input is aligned at ({@code --axis}). */
    public final B axis(long axis) {
        arguments = arguments.withAxis(axis);
        return self();
    }

    @SuppressWarnings("unchecked")
    final B self() {
        // only the builders of this package extend this class, each as DialectBuilder<itself>
        return (B) this;
    }
}
