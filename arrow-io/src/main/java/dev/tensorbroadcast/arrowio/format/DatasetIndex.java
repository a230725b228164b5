package dev.tensorbroadcast.arrowio.format;

/**
 * The rule for a dataset's {@code index} column: the files, ordered by their first index, number the rows 0..N-1,
 * each file a consecutive ascending run, as this tool, and any writer of sorted rows, write them.
 */
public final class DatasetIndex {
    private DatasetIndex() {}

    public static SourceFormatException notConsecutive(String file, long expected, Long found) {
        return new SourceFormatException(file, "the row holding dataset row " + expected + " has index "
                + (found == null ? "null" : found) + "; the index must number the rows 0..N-1, consecutive within "
                + "each file (sort by index before writing)");
    }
}
