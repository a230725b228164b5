package dev.tensorbroadcast.planner;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * The adjoint of one input of a broadcast: the output-shaped gradient summed back to the input's shape. It is read off
 * the forward plan, never per dialect: output element {@code c} adds into the input element the copy program reads
 * for {@code c}, which is nGraph's {@code Sum(delta, broadcast_axes)} and PyTorch's {@code expand} backward.
 */
public final class ReducePlan implements Serializable {
    private static final long serialVersionUID = 1L;

    /** How the work splits over the gradient's rows (its first dim). */
    public enum Regime {
        /** Every gradient row adds into the whole result: tasks sum partials that are combined in a fixed tree. */
        ROWS_SUMMED("rows-summed"),
        /** Gradient row {@code r} adds only into result row {@code r}: each task writes its own slice of the result. */
        ROWS_KEPT("rows-kept");

        private final String text;

        Regime(String text) {
            this.text = text;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    private final BroadcastPlan plan;
    private final int inputIndex;
    private final CopyProgram program;

    private ReducePlan(BroadcastPlan plan, int inputIndex) {
        this.plan = requireNonNull(plan, "plan is null");
        this.inputIndex = inputIndex;
        this.program = plan.copyProgram(inputIndex);
    }

    /** The reduce of input {@code inputIndex} of {@code plan}. */
    public static ReducePlan of(BroadcastPlan plan, int inputIndex) {
        int inputs = plan.inputs().size();
        if (inputIndex < 0 || inputIndex >= inputs) {
            throw new InvalidRequestException(
                    "Cannot plan reduce: input index " + inputIndex + " is not in [0, " + inputs + ")");
        }
        return new ReducePlan(plan, inputIndex);
    }

    public BroadcastPlan plan() {
        return plan;
    }

    public int inputIndex() {
        return inputIndex;
    }

    /** The result's shape: the input's. */
    public Shape input() {
        return plan.input(inputIndex).input();
    }

    /** The result's element type: the input's. */
    public DType dtype() {
        return plan.request().input(inputIndex).dtype();
    }

    /** The gradient's shape: the forward output's. */
    public Shape output() {
        return plan.output();
    }

    /** The forward copy program; reduce runs it in reverse ({@link CopyProgram#reduce}). */
    public CopyProgram program() {
        return program;
    }

    /**
     * The output axes the sum runs over, nGraph's {@code broadcast_axes}: every axis the input does not have, and
     * every axis where the input has 1 and the output more.
     */
    public int[] summedAxes() {
        InputBroadcast mapping = plan.input(inputIndex);
        int[] outputAxes = mapping.outputAxes();
        boolean[] kept = new boolean[output().rank()];
        for (int i = 0; i < outputAxes.length; i++) {
            if (mapping.input().dim(i) == output().dim(outputAxes[i])) {
                kept[outputAxes[i]] = true;
            }
        }
        List<Integer> summed = new ArrayList<>();
        for (int axis = 0; axis < kept.length; axis++) {
            if (!kept[axis]) {
                summed.add(axis);
            }
        }
        return summed.stream().mapToInt(Integer::intValue).toArray();
    }

    public Regime regime() {
        Shape input = input();
        if (input.rank() > 0
                && plan.input(inputIndex).outputAxes()[0] == 0
                && input.dim(0) > 1
                && input.dim(0) == output().dim(0)) {
            return Regime.ROWS_KEPT;
        }
        return Regime.ROWS_SUMMED;
    }

    /**
     * How many gradient elements add into each result element: the product of the summed axes' sizes (1 when nothing
     * is summed, 0 when a summed axis is 0). Read off the axes, not the element counts, so that an empty input still
     * says how many copies each of its (absent) elements has.
     */
    public long copies() {
        int[] axes = summedAxes();
        long[] sizes = new long[axes.length];
        for (int i = 0; i < axes.length; i++) {
            sizes[i] = output().dim(axes[i]);
        }
        return Shape.of(sizes).elements();
    }

    /** Gradient elements per gradient row (the whole gradient for a scalar output). */
    public long outputRowElements() {
        Shape output = output();
        return output.rank() == 0 ? 1 : output.product(1, output.rank());
    }

    /** Result elements per result row (the whole result for a scalar input). */
    public long inputRowElements() {
        Shape input = input();
        return input.rank() == 0 ? 1 : input.product(1, input.rank());
    }

    /** The result rows that gradient elements {@code [start, end)} add into. */
    public SourceRows inputRows(long start, long end) {
        return plan.sourceRows(inputIndex, start, end);
    }

    @Override
    public String toString() {
        return "reduce " + output() + " -> " + input() + " [" + plan.dialect() + "], " + regime();
    }
}
