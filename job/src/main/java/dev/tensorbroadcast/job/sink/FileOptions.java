package dev.tensorbroadcast.job.sink;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.ArrowTensorFileWriter;
import dev.tensorbroadcast.planner.InvalidRequestException;

/**
 * How a dataset's files are written: the format, the codec and its level, the bytes of values per Parquet row group
 * (and Arrow record batch), and whether Parquet floats go BYTE_STREAM_SPLIT. Checked when made, with the CLI's words.
 *
 * @param compressionLevel the zstd level, 1 (fastest) to 22 (smallest), or 0 for zstd's own default (3)
 * @param rowGroupBytes 1 MiB to 1 GiB, at least one row each; a task holds one group's buffers
 */
public record FileOptions(OutputFormat format, OutputCompression compression, int compressionLevel,
        long rowGroupBytes, boolean byteStreamSplit) {
    public static final long DEFAULT_ROW_GROUP_BYTES = ArrowTensorFileWriter.DEFAULT_BATCH_BYTES;
    public static final long MIN_ROW_GROUP_BYTES = 1L << 20;
    public static final long MAX_ROW_GROUP_BYTES = 1L << 30;

    public FileOptions {
        requireNonNull(format, "format is null");
        requireNonNull(compression, "compression is null");
        if (compressionLevel != 0 && (compression != OutputCompression.ZSTD || compressionLevel < 1
                || compressionLevel > 22)) {
            throw new InvalidRequestException("Cannot use compression '" + compression + ":" + compressionLevel
                    + "': " + (compression == OutputCompression.ZSTD ? "zstd levels go from 1 (fastest) to 22 "
                    + "(smallest)" : compression + " takes no level") + "; expected none, lz4, zstd or zstd:1 to"
                    + " zstd:22");
        }
        if (rowGroupBytes < MIN_ROW_GROUP_BYTES || rowGroupBytes > MAX_ROW_GROUP_BYTES) {
            throw new InvalidRequestException("Cannot use row group size " + rowGroupBytes + " bytes: expected 1m to"
                    + " 1g (each task holds one group's buffers; the default is 32m)");
        }
    }

    /** Arrow IPC, uncompressed, 32 MiB row groups, PLAIN. */
    public static FileOptions defaults() {
        return new FileOptions(OutputFormat.ARROW, OutputCompression.NONE, 0, DEFAULT_ROW_GROUP_BYTES, false);
    }

    public FileOptions withFormat(OutputFormat format) {
        return new FileOptions(format, compression, compressionLevel, rowGroupBytes, byteStreamSplit);
    }

    /** The codec at its default level. */
    public FileOptions withCompression(OutputCompression compression) {
        return new FileOptions(format, compression, 0, rowGroupBytes, byteStreamSplit);
    }

    public FileOptions withCompressionLevel(int level) {
        return new FileOptions(format, compression, level, rowGroupBytes, byteStreamSplit);
    }

    public FileOptions withRowGroupBytes(long bytes) {
        return new FileOptions(format, compression, compressionLevel, bytes, byteStreamSplit);
    }

    public FileOptions withByteStreamSplit(boolean split) {
        return new FileOptions(format, compression, compressionLevel, rowGroupBytes, split);
    }
}
