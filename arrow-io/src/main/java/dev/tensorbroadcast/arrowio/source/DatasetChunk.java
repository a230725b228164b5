package dev.tensorbroadcast.arrowio.source;

import java.io.Serializable;

/**
 * The unit a dataset file is read in: an Arrow record batch or a Parquet row group.
 *
 * @param rows the rows it holds
 * @param bytes the bytes read to load it: an Arrow batch's message and body, a Parquet row group's column chunks
 *     of the columns read (compressed)
 */
public record DatasetChunk(long rows, long bytes) implements Serializable {
    public DatasetChunk {
        if (rows < 0 || bytes < 0) {
            throw new IllegalArgumentException("a chunk holds 0 or more rows and bytes, not " + rows + " and " + bytes);
        }
    }
}
