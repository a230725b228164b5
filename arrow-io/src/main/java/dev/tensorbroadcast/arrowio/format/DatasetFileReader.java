package dev.tensorbroadcast.arrowio.format;

import java.io.Closeable;
import java.io.IOException;

/**
 * Reads one dataset file batch by batch (an Arrow record batch, a Parquet row group), so memory is bounded by the
 * largest batch whatever the file's size. A file that is not what the manifest says gives an {@link IOException}
 * whose message says why.
 */
public interface DatasetFileReader extends Closeable {
    /** The next batch, or null after the last; the batch's buffers are reused by the following call. */
    ElementBatch next() throws IOException;
}
