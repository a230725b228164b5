package dev.tensorbroadcast.planner;

import java.io.Serializable;

/**
 * A contiguous range {@code [first, end)} of an input's rows: the entries of its first (batch) dim. A scalar input is
 * one row. This is what a task must read of a source to fill its partition (see {@link BroadcastPlan#sourceRows}).
 */
public record SourceRows(long first, long end) implements Serializable {
    public SourceRows {
        if (first < 0 || end < first) {
            throw new IllegalArgumentException("source rows [" + first + ", " + end + ") are not a range");
        }
    }

    public static SourceRows none() {
        return new SourceRows(0, 0);
    }

    public long count() {
        return end - first;
    }

    public boolean isEmpty() {
        return end == first;
    }

    public boolean contains(long row) {
        return row >= first && row < end;
    }

    @Override
    public String toString() {
        return "[" + first + ", " + end + ")";
    }
}
