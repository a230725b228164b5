package dev.tensorbroadcast.job;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.BroadcastMode;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.TargetShape;
import java.util.List;

/**
 * A dialect and the arguments of a request besides its inputs (target shape, mode, axes), as the builders of a
 * broadcast ({@link TensorBroadcast}) and of its adjoint ({@link TensorReduce}) collect them. Immutable: each
 * {@code with} returns a copy. The planner checks the combination when the request is built.
 */
final class DialectArguments {
    static final DialectArguments NONE = new DialectArguments(null, null, null, null, null, null);

    private final Dialect dialect;
    private final TargetShape shape;
    private final BroadcastMode mode;
    private final List<Long> axesMapping;
    private final List<Long> broadcastAxes;
    private final Long axis;

    private DialectArguments(
            Dialect dialect,
            TargetShape shape,
            BroadcastMode mode,
            List<Long> axesMapping,
            List<Long> broadcastAxes,
            Long axis) {
        this.dialect = dialect;
        this.shape = shape;
        this.mode = mode;
        this.axesMapping = axesMapping;
        this.broadcastAxes = broadcastAxes;
        this.axis = axis;
    }

    DialectArguments withDialect(Dialect dialect) {
        return new DialectArguments(
                requireNonNull(dialect, "dialect is null"), shape, mode, axesMapping, broadcastAxes, axis);
    }

    DialectArguments withShape(TargetShape shape) {
        return new DialectArguments(
                dialect, requireNonNull(shape, "shape is null"), mode, axesMapping, broadcastAxes, axis);
    }

    DialectArguments withMode(BroadcastMode mode) {
        return new DialectArguments(
                dialect, shape, requireNonNull(mode, "mode is null"), axesMapping, broadcastAxes, axis);
    }

    DialectArguments withAxesMapping(List<Long> axes) {
        return new DialectArguments(dialect, shape, mode, List.copyOf(axes), broadcastAxes, axis);
    }

    DialectArguments withBroadcastAxes(List<Long> axes) {
        return new DialectArguments(dialect, shape, mode, axesMapping, List.copyOf(axes), axis);
    }

    DialectArguments withAxis(long axis) {
        return new DialectArguments(dialect, shape, mode, axesMapping, broadcastAxes, axis);
    }

    boolean hasDialect() {
        return dialect != null;
    }

    /** The dialect; a builder that was given none fails here, when it builds. */
    Dialect dialect() {
        return requireNonNull(dialect, "dialect is null");
    }

    /** A request builder of the dialect with every argument given; the caller adds the inputs. */
    BroadcastRequest.Builder request() {
        BroadcastRequest.Builder request = BroadcastRequest.builder(dialect());
        if (shape != null) {
            request.target(shape);
        }
        if (mode != null) {
            request.mode(mode);
        }
        if (axesMapping != null) {
            request.axesMapping(axesMapping);
        }
        if (broadcastAxes != null) {
            request.broadcastAxes(broadcastAxes);
        }
        if (axis != null) {
            request.axis(axis);
        }
        return request;
    }
}
