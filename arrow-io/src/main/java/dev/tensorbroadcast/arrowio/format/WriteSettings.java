package dev.tensorbroadcast.arrowio.format;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.format.arrow.ArrowTensorFileWriter;
import dev.tensorbroadcast.arrowio.format.arrow.IpcCompression;
import dev.tensorbroadcast.arrowio.format.parquet.ParquetWriteOptions;
import java.io.Serializable;

/**
 * How a dataset file is written, whatever its format; each format takes what applies to it.
 *
 * @param batchBytes bytes of values per record batch or row group, at least one row each
 * @param ipcCompression the Arrow IPC codec
 * @param compressionLevel the codec's level, or 0 for its default
 * @param parquet the Parquet writer's options (codec, level, encoding, row layout)
 */
public record WriteSettings(long batchBytes, IpcCompression ipcCompression, int compressionLevel,
        ParquetWriteOptions parquet) implements Serializable {
    public WriteSettings {
        requireNonNull(ipcCompression, "ipcCompression is null");
        requireNonNull(parquet, "parquet is null");
        if (batchBytes <= 0) {
            throw new IllegalArgumentException("batchBytes must be positive: " + batchBytes);
        }
    }

    /** Uncompressed, 32 MiB batches, flat rows. */
    public static WriteSettings defaults() {
        return new WriteSettings(ArrowTensorFileWriter.DEFAULT_BATCH_BYTES, IpcCompression.NONE, 0,
                ParquetWriteOptions.defaults());
    }
}
