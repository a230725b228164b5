package dev.tensorbroadcast.arrowio.format;

import java.io.Serializable;

/**
 * The unit a dataset file is read in: an Arrow record batch or a Parquet row group.
 *
 * @param rows the rows it holds
 * @param bytes the bytes read to load it: an Arrow batch's message and body, a Parquet row group's column chunks
 *     of the columns read (compressed)
 * @param offset where it starts in the file, for a format whose chunks a task cannot find without it (an Arrow IPC
 *     stream's record batch, which no footer lists), else -1
 */
public record DatasetChunk(long rows, long bytes, long offset) implements Serializable {
    public DatasetChunk {
        if (rows < 0 || bytes < 0 || offset < -1) {
            throw new IllegalArgumentException("a chunk holds 0 or more rows and bytes, at an offset of 0 or more or"
                    + " -1, not " + rows + ", " + bytes + " and " + offset);
        }
    }

    /** A chunk its format finds by itself (a file's footer lists it). */
    public DatasetChunk(long rows, long bytes) {
        this(rows, bytes, -1);
    }
}
