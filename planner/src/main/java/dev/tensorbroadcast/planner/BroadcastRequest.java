package dev.tensorbroadcast.planner;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a user asks for, in one framework's terms: the inputs, the dialect, and the dialect's arguments (target shape,
 * OpenVINO mode, axes). Which arguments a dialect takes, and which values, is the dialect's rule: {@link #plan()}
 * applies it.
 */
public final class BroadcastRequest implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Dialect dialect;
    private final List<TensorSpec> inputs;
    private final TargetShape target;
    private final BroadcastMode mode;
    private final List<Long> axesMapping;
    private final List<Long> broadcastAxes;
    private final Long axis;

    private BroadcastRequest(Builder builder) {
        this.dialect = requireNonNull(builder.dialect, "dialect is null");
        this.inputs = List.copyOf(builder.inputs);
        this.target = builder.target;
        this.mode = builder.mode;
        this.axesMapping = builder.axesMapping == null ? null : List.copyOf(builder.axesMapping);
        this.broadcastAxes = builder.broadcastAxes == null ? null : List.copyOf(builder.broadcastAxes);
        this.axis = builder.axis;
        if (inputs.isEmpty()) {
            throw new InvalidRequestException("Cannot plan a broadcast [" + dialect + "]: no input shape was given");
        }
    }

    public static Builder builder(Dialect dialect) {
        return new Builder(dialect);
    }

    /** Applies the dialect's rule: the output shape and how each input maps onto it, or a {@link BroadcastException}. */
    public BroadcastPlan plan() {
        return dialect.rule().plan(this);
    }

    public Dialect dialect() {
        return dialect;
    }

    public List<TensorSpec> inputs() {
        return inputs;
    }

    public TensorSpec input(int index) {
        return inputs.get(index);
    }

    public Optional<TargetShape> target() {
        return Optional.ofNullable(target);
    }

    public Optional<BroadcastMode> mode() {
        return Optional.ofNullable(mode);
    }

    /** OpenVINO explicit mode: input axis {@code i} lands on output axis {@code axesMapping[i]}. */
    public Optional<List<Long>> axesMapping() {
        return Optional.ofNullable(axesMapping);
    }

    /** nGraph: the output axes that are new (broadcast). */
    public Optional<List<Long>> broadcastAxes() {
        return Optional.ofNullable(broadcastAxes);
    }

    /** OpenVINO pdpd mode: the output axis the input is aligned at; -1 aligns it to the right. */
    public OptionalLong axis() {
        return axis == null ? OptionalLong.empty() : OptionalLong.of(axis);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(dialect.dialectName()).append(" inputs=");
        text.append(inputs.stream().map(spec -> spec.shape().toList()).toList());
        if (target != null) {
            text.append(" shape=").append(target.toList());
        }
        if (mode != null) {
            text.append(" mode=").append(mode);
        }
        if (axesMapping != null) {
            text.append(" axes_mapping=").append(axesMapping);
        }
        if (broadcastAxes != null) {
            text.append(" broadcast_axes=").append(broadcastAxes);
        }
        if (axis != null) {
            text.append(" axis=").append(axis);
        }
        return text.toString();
    }

    public static final class Builder {
        private final Dialect dialect;
        private final List<TensorSpec> inputs = new ArrayList<>();
        private TargetShape target;
        private BroadcastMode mode;
        private List<Long> axesMapping;
        private List<Long> broadcastAxes;
        private Long axis;

        private Builder(Dialect dialect) {
            this.dialect = requireNonNull(dialect, "dialect is null");
        }

        public Builder input(TensorSpec input) {
            inputs.add(requireNonNull(input, "input is null"));
            return this;
        }

        public Builder input(Shape shape, DType dtype) {
            return input(new TensorSpec(shape, dtype));
        }

        /** An input of type float32, for requests about shapes alone. */
        public Builder input(Shape shape) {
            return input(shape, DType.FLOAT32);
        }

        public Builder target(TargetShape target) {
            this.target = requireNonNull(target, "target is null");
            return this;
        }

        public Builder target(long... dims) {
            return target(TargetShape.of(dims));
        }

        public Builder mode(BroadcastMode mode) {
            this.mode = requireNonNull(mode, "mode is null");
            return this;
        }

        public Builder axesMapping(List<Long> axesMapping) {
            this.axesMapping = List.copyOf(requireNonNull(axesMapping, "axesMapping is null"));
            return this;
        }

        public Builder axesMapping(long... axes) {
            return axesMapping(boxed(axes));
        }

        public Builder broadcastAxes(List<Long> broadcastAxes) {
            this.broadcastAxes = List.copyOf(requireNonNull(broadcastAxes, "broadcastAxes is null"));
            return this;
        }

        public Builder broadcastAxes(long... axes) {
            return broadcastAxes(boxed(axes));
        }

        public Builder axis(long axis) {
            this.axis = axis;
            return this;
        }

        public BroadcastRequest build() {
            return new BroadcastRequest(this);
        }

        private static List<Long> boxed(long[] values) {
            List<Long> list = new ArrayList<>(values.length);
            for (long value : values) {
                list.add(value);
            }
            return list;
        }
    }
}
