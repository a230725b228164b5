package dev.tensorbroadcast.arrowio.format;

/**
 * The rule for a dataset's {@code index} column: the files, ordered by their first index, number the rows 0..N-1,
 * each file a consecutive ascending run, as this tool, and any writer of sorted rows, write them.
 */
public final class IndexColumn {
    private IndexColumn() {}

    /** Refuses a row of {@code file} whose index is {@code found} (null: none) where it must be {@code expected}. */
    public static SourceFormatException notConsecutive(String file, long expected, Long found) {
        return new SourceFormatException(
                file,
                "the row holding dataset row " + expected + " has index "
                        + (found == null ? "null" : found)
                        + "; the index must number the rows 0..N-1, consecutive within "
                        + "each file (sort by index before writing)");
    }
}
