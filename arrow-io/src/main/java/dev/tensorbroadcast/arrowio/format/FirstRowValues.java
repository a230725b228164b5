package dev.tensorbroadcast.arrowio.format;

/**
 * How many values the first row of a dataset file's list column holds, read while planning so that a
 * {@code --row-shape} that does not fit the rows is refused before Spark starts, not by a task. It reads little: of
 * a Parquet file the page headers up to the first data page and that page's levels; of an Arrow IPC file the first
 * two offsets of the first record batch that has rows. Whatever it cannot tell cheaply (a first row that goes on
 * past its page, a null first row, an encrypted or oddly encoded page, a page or buffer over {@link #MAX_BYTES})
 * is {@link #UNKNOWN}: the tasks still check every row as they read it.
 */
public final class FirstRowValues {
    public static final long UNKNOWN = -1;
    /** The most bytes read for one page or offsets buffer: a first row is worth one page, not a row group. */
    public static final int MAX_BYTES = 16 << 20;

    private FirstRowValues() {}
}
