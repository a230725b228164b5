package dev.tensorbroadcast.planner;

import java.io.Serializable;
import java.util.Optional;

/**
 * Which source row each output row comes from, when output rows follow an input's rows: the input's first (batch)
 * dim is the output's first dim, kept ({@code sourceRows} equal to the output's first dim) or grown from one row
 * (every output row comes from row 0). An output row that spans several leading dims ({@link PartitionPlan#rowDims})
 * takes its source row from the first of them. This is what lets a row's other columns travel with it.
 *
 * <p>A zero-size output has a lineage too (none of its rows to trace): an input of 0 rows keeps them as the output's
 * 0 rows, and a 0 among the other row dims gives 0 output rows per step; either way no output row asks for a source.
 *
 * @param sourceRows the input's rows, 0 or more
 * @param outputRowsPerStep output rows per entry of the output's first dim, 0 or more
 */
public record RowLineage(long sourceRows, long outputRowsPerStep) implements Serializable {
    public RowLineage {
        if (sourceRows < 0 || outputRowsPerStep < 0) {
            throw new IllegalArgumentException("Cannot trace rows: " + sourceRows + " source rows, " + outputRowsPerStep
                    + " output rows per step");
        }
    }

    /**
     * The lineage of input {@code input}'s rows in {@code partitions}' rows, or empty when an output row is not one
     * source row's: a scalar input, or an input whose first dim lands on a later output axis (numpy's prepended
     * dims), so that one output row holds many source rows.
     */
    public static Optional<RowLineage> of(BroadcastPlan plan, int input, PartitionPlan partitions) {
        InputBroadcast mapping = plan.input(input);
        Shape output = plan.output();
        if (mapping.input().rank() == 0
                || mapping.outputAxes()[0] != 0
                || partitions.rowDims() == 0
                || !output.equals(partitions.output())) {
            return Optional.empty();
        }
        return Optional.of(new RowLineage(mapping.input().dim(0), output.product(1, partitions.rowDims())));
    }

    /** The source row that output row {@code outputRow} comes from. */
    public long sourceRow(long outputRow) {
        if (sourceRows == 0 || outputRowsPerStep == 0) {
            throw new IndexOutOfBoundsException("output row " + outputRow + " of a zero-size output, which has none");
        }
        return sourceRows == 1 ? 0 : outputRow / outputRowsPerStep;
    }

    /** The source rows that output rows {@code [first, end)} come from. */
    public SourceRows sourceRows(long first, long end) {
        if (end <= first) {
            return SourceRows.none();
        }
        return new SourceRows(sourceRow(first), sourceRow(end - 1) + 1);
    }
}
