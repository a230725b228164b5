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
        return new BroadcastPlan(
                request,
                output,
                request.inputs().stream()
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

    /** The rows of input {@code index}: the entries of its first dim, or 1 for a scalar. */
    public long sourceRowCount(int index) {
        Shape input = inputs.get(index).input();
        return input.rank() == 0 ? 1 : input.dim(0);
    }

    /**
     * The rows of input {@code index} that {@code partition} reads: a broadcast that keeps the input's first (batch)
     * dim, such as {@code [N,1,64] -> [N,8,64]}, reads only the rows matching the partition's; one that repeats the
     * input along an output dim outside it reads every row. The range is exact: its first and last rows are read.
     */
    public SourceRows sourceRows(int index, Partition partition) {
        return sourceRows(index, partition.firstElement(), partition.endElement());
    }

    /** The rows of input {@code index} that output elements {@code [start, end)} (row-major) read. */
    public SourceRows sourceRows(int index, long start, long end) {
        long elements = output.elements();
        if (start < 0 || end < start || end > elements) {
            throw new IndexOutOfBoundsException("range [" + start + ", " + end + ") outside [0, " + elements + ")");
        }
        if (start == end) {
            return SourceRows.none();
        }
        InputBroadcast mapping = inputs.get(index);
        long rows = sourceRowCount(index);
        if (mapping.input().rank() == 0 || rows == 1) {
            return new SourceRows(0, rows);
        }
        // the input's first dim is output axis `axis`, of the same size: the output index along it names the row
        int axis = mapping.outputAxes()[0];
        long block = output.product(axis + 1, output.rank());
        long firstStep = start / block;
        long lastStep = (end - 1) / block;
        if (lastStep - firstStep + 1 >= rows || firstStep / rows != lastStep / rows) {
            // the range wraps around the axis: every row, or both of its ends, are read
            return new SourceRows(0, rows);
        }
        return new SourceRows(firstStep % rows, lastStep % rows + 1);
    }

    @Override
    public String toString() {
        return request + " -> " + output;
    }
}
