package dev.tensorbroadcast.arrowio.format.parquet;

import dev.tensorbroadcast.planner.Shape;

/**
 * The repetition and definition levels of one tensor row whose values are nested in lists of the sizes
 * {@code lists} (outermost first; one list of all values for the flat layout). Every row of a column has the same
 * pattern, so it is worked out once and replayed per row as runs: a writer never computes a level per value.
 *
 * <p>A value continues the innermost list whose index changed: its repetition level is 1 plus that list's depth,
 * and 0 for a row's first value. With a zero-sized list the row has no values: it is the lists down to that one,
 * each present and empty.
 */
final class RowLevels {
    /** The definition level of a present value: one per repeated level, one for the optional value. */
    final int present;
    /** The definition level of a null value. */
    final int nullValue;
    /** The highest repetition level. */
    final int maxRepetition;
    /** Level entries per row: its values, or for a row without values its empty lists (at least 1). */
    final long entries;
    /** Whether rows have no values, only empty lists. */
    final boolean empty;
    /** The definition level of each entry of a row without values: the depth of its empty lists. */
    final int emptyDefinition;

    private final Shape lists;
    /** How many leading lists are non-empty: the depth whose entries the odometer walks. */
    private final int filled;
    /** Runs of equal levels in one row, counted on first use. */
    private long runs = -1;

    RowLevels(Shape lists) {
        int depth = lists.rank();
        if (depth < 1) {
            throw new IllegalArgumentException("Cannot lay out a row in " + depth + " lists: at least one");
        }
        this.lists = lists;
        maxRepetition = depth;
        present = depth + 1;
        nullValue = depth;
        int nonEmpty = 0;
        while (nonEmpty < depth && lists.dim(nonEmpty) > 0) {
            nonEmpty++;
        }
        filled = nonEmpty;
        empty = filled < depth;
        emptyDefinition = filled;
        entries = filled == 0 ? 1 : lists.product(0, filled);
    }

    /** Where a row's levels go, run by run. */
    interface Runs {
        /** Appends {@code count} copies of {@code level}. */
        void add(int level, long count);
    }

    /**
     * Appends one row's repetition levels to {@code levels}, a run at a time: the innermost non-empty lists walked as
     * an odometer, where the digit a carry stops at is the outermost list that starts a new entry. Nothing is kept
     * between rows, so a row of any shape costs no memory here; adjacent runs of one level are merged.
     */
    void addRow(Runs levels) {
        if (filled == 0) {
            levels.add(0, 1);
            return;
        }
        long inner = lists.dim(filled - 1);
        long outer = lists.product(0, filled - 1);
        long[] index = new long[filled - 1];
        int pendingLevel = 0;
        long pendingLength = 0;
        for (long q = 0; q < outer; q++) {
            int first = 0;
            if (q > 0) {
                int changed = filled - 2;
                while (++index[changed] == lists.dim(changed)) {
                    index[changed] = 0;
                    changed--;
                }
                first = changed + 1;
            }
            if (first == pendingLevel) {
                pendingLength++;
            } else {
                levels.add(pendingLevel, pendingLength);
                pendingLevel = first;
                pendingLength = 1;
            }
            if (inner > 1) {
                if (pendingLevel != filled) {
                    levels.add(pendingLevel, pendingLength);
                    pendingLevel = filled;
                    pendingLength = 0;
                }
                pendingLength += inner - 1;
            }
        }
        levels.add(pendingLevel, pendingLength);
    }

    /** Runs of equal levels in one row: what replaying a row as RLE runs costs. */
    long runs() {
        if (runs < 0) {
            long[] count = {0};
            addRow((level, length) -> {
                if (length > 0) {
                    count[0]++;
                }
            });
            runs = count[0];
        }
        return runs;
    }
}
