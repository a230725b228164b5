package dev.tensorbroadcast.arrowio.format;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.TensorBatch;
import dev.tensorbroadcast.planner.InvalidRequestException;
import java.io.Serializable;
import java.util.OptionalLong;

/**
 * How a result's files are written, whatever its format: the one description of a write from the request to the
 * writer. Each value is checked here, once; whether the format can honour it is the format's to say
 * ({@link TensorFileFormat#refusal(WriteSettings)}), before any task runs; each writer turns what applies to it into
 * its library's own terms (an IPC codec, a Parquet codec name, a Zarr codec).
 *
 * @param rowGroupBytes bytes of values per Parquet row group and Arrow record batch, 1 MiB to 1 GiB (at least one
 *     row each; a task holds one group's buffers), or 0 for the default, 32 MiB (as a codec's level 0 is its own)
 * @param compression the codec and its level
 * @param byteStreamSplit whether float values are written BYTE_STREAM_SPLIT (Parquet)
 * @param rowLayout one flat list per row, or lists nested one level per dimension (Parquet)
 */
public record WriteSettings(long rowGroupBytes, Compression compression, boolean byteStreamSplit, RowLayout rowLayout)
        implements Serializable {
    public static final long DEFAULT_ROW_GROUP_BYTES = TensorBatch.DEFAULT_BATCH_BYTES;
    public static final long MIN_ROW_GROUP_BYTES = 1L << 20;
    public static final long MAX_ROW_GROUP_BYTES = 1L << 30;
    private static final WriteSettings DEFAULTS = new WriteSettings(0, Compression.NONE, false, RowLayout.FLAT);

    public WriteSettings {
        requireNonNull(compression, "compression is null");
        requireNonNull(rowLayout, "rowLayout is null");
        if (rowGroupBytes != 0) {
            requireRowGroupBytes(rowGroupBytes);
        }
    }

    /** The settings, with {@code rowGroupBytes} as given ({@code --row-group-size}), if it was: 0 is refused then. */
    public static WriteSettings of(
            OptionalLong rowGroupBytes, Compression compression, boolean byteStreamSplit, RowLayout rowLayout) {
        rowGroupBytes.ifPresent(WriteSettings::requireRowGroupBytes);
        return new WriteSettings(rowGroupBytes.orElse(0), compression, byteStreamSplit, rowLayout);
    }

    private static void requireRowGroupBytes(long bytes) {
        if (bytes < MIN_ROW_GROUP_BYTES || bytes > MAX_ROW_GROUP_BYTES) {
            throw new InvalidRequestException("Cannot use row group size " + bytes + " bytes: expected 1m to 1g (each"
                    + " task holds one group's buffers; the default is 32m)");
        }
    }

    /** Uncompressed, 32 MiB batches, PLAIN, flat rows. */
    public static WriteSettings defaults() {
        return DEFAULTS;
    }

    /** The row-group size, when one was given. */
    public OptionalLong givenRowGroupBytes() {
        return rowGroupBytes == 0 ? OptionalLong.empty() : OptionalLong.of(rowGroupBytes);
    }

    /** The bytes of values per record batch or row group a writer fills: the given ones, else 32 MiB. */
    public long batchBytes() {
        return rowGroupBytes == 0 ? DEFAULT_ROW_GROUP_BYTES : rowGroupBytes;
    }
}
