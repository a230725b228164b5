package dev.tensorbroadcast.arrowio.format;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.TensorBatch;
import java.io.Serializable;

/**
 * How a dataset file is written, whatever its format: the one description of a write that reaches a writer. Each
 * format turns what applies to it into its library's own terms (an IPC codec, a Parquet codec name, a Zarr codec)
 * and has refused what it cannot honour before any task runs ({@link TensorFileFormat#refusal}).
 *
 * @param batchBytes bytes of values per record batch or row group, at least one row each
 * @param compression the codec and its level
 * @param byteStreamSplit whether float values are written BYTE_STREAM_SPLIT (Parquet)
 * @param rowLayout one flat list per row, or lists nested one level per dimension (Parquet)
 */
public record WriteSettings(long batchBytes, Compression compression, boolean byteStreamSplit, RowLayout rowLayout)
        implements Serializable {
    public WriteSettings {
        requireNonNull(compression, "compression is null");
        requireNonNull(rowLayout, "rowLayout is null");
        if (batchBytes <= 0) {
            throw new IllegalArgumentException("batchBytes must be positive: " + batchBytes);
        }
    }

    /** Uncompressed, 32 MiB batches, PLAIN, flat rows. */
    public static WriteSettings defaults() {
        return new WriteSettings(TensorBatch.DEFAULT_BATCH_BYTES, Compression.NONE, false, RowLayout.FLAT);
    }
}
