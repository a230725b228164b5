package dev.tensorbroadcast.planner;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.util.List;

/**
 * The outcome of a dialect's rule: the output shape and, for each input, how it lands in the output. Everything after
 * this point is dialect-free.
 */
public final class BroadcastPlan implements Serializable {
    private static final long serialVersionUID = 1L;

    private final BroadcastRequest request;
    private final Shape output;
    private final List<InputBroadcast> inputs;

    private BroadcastPlan(BroadcastRequest request, Shape output, List<InputBroadcast> inputs) {
        this.request = requireNonNull(request, "request is null");
        this.output = requireNonNull(output, "output is null");
        this.inputs = List.copyOf(inputs);
        if (this.inputs.size() != request.inputs().size()) {
            throw new IllegalArgumentException("a plan needs one mapping per input");
        }
        for (int i = 0; i < this.inputs.size(); i++) {
            InputBroadcast mapping = this.inputs.get(i);
            if (!mapping.input().equals(request.input(i).shape())) {
                throw new IllegalArgumentException("mapping " + i + " is for " + mapping.input());
            }
            mapping.checkFits(output);
        }
        // the size must be countable before anyone sizes files by it
        output.elements();
    }

    static BroadcastPlan of(BroadcastRequest request, Shape output, List<InputBroadcast> inputs) {
        return new BroadcastPlan(request, output, inputs);
    }

    /** A plan where every input is right-aligned to the output, numpy's way. */
    static BroadcastPlan rightAligned(BroadcastRequest request, Shape output) {
        return new BroadcastPlan(request, output, request.inputs().stream()
                .map(spec -> InputBroadcast.rightAligned(spec.shape(), output.rank()))
                .toList());
    }

    public BroadcastRequest request() {
        return request;
    }

    public Dialect dialect() {
        return request.dialect();
    }

    public Shape output() {
        return output;
    }

    public List<InputBroadcast> inputs() {
        return inputs;
    }

    public InputBroadcast input(int index) {
        return inputs.get(index);
    }

    /** The copy program that fills this plan's output from input {@code index}. */
    public CopyProgram copyProgram(int index) {
        return CopyProgram.of(output, inputs.get(index).sourceStrides(output));
    }

    @Override
    public String toString() {
        return request + " -> " + output;
    }
}
