package dev.tensorbroadcast.arrowio.parquet;

import dev.tensorbroadcast.planner.Shape;
import java.util.Arrays;

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

    private int[] runLevels = new int[8];
    private long[] runLengths = new long[8];
    private int runs;

    RowLevels(Shape lists) {
        int depth = lists.rank();
        if (depth < 1) {
            throw new IllegalArgumentException("Cannot lay out a row in " + depth + " lists: at least one");
        }
        maxRepetition = depth;
        present = depth + 1;
        nullValue = depth;
        int filled = 0;
        while (filled < depth && lists.dim(filled) > 0) {
            filled++;
        }
        empty = filled < depth;
        emptyDefinition = filled;
        entries = filled == 0 ? 1 : lists.product(0, filled);
        if (filled == 0) {
            addRun(0, 1);
            return;
        }
        // walk the lists that hold the innermost non-empty ones, as an odometer: the digit where a carry stops is
        // the outermost list that starts a new entry
        long inner = lists.dim(filled - 1);
        long[] index = new long[filled - 1];
        long outer = lists.product(0, filled - 1);
        for (long q = 0; q < outer; q++) {
            int changed = -1;
            if (q > 0) {
                changed = filled - 2;
                while (++index[changed] == lists.dim(changed)) {
                    index[changed] = 0;
                    changed--;
                }
            }
            addRun(changed + 1, 1);
            addRun(filled, inner - 1);
        }
    }

    /** Where a row's levels go, run by run. */
    interface Runs {
        /** Appends {@code count} copies of {@code level}. */
        void add(int level, long count);
    }

    /** Appends one row's repetition levels to {@code levels}. */
    void addRow(Runs levels) {
        for (int i = 0; i < runs; i++) {
            levels.add(runLevels[i], runLengths[i]);
        }
    }

    /** Runs of equal levels in one row: what a row costs a writer. */
    int runs() {
        return runs;
    }

    private void addRun(int level, long length) {
        if (length <= 0) {
            return;
        }
        if (runs > 0 && runLevels[runs - 1] == level) {
            runLengths[runs - 1] += length;
            return;
        }
        if (runs == runLevels.length) {
            runLevels = Arrays.copyOf(runLevels, runs * 2);
            runLengths = Arrays.copyOf(runLengths, runs * 2);
        }
        runLevels[runs] = level;
        runLengths[runs] = length;
        runs++;
    }
}
