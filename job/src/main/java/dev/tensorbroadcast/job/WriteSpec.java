package dev.tensorbroadcast.job;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.format.Compression;
import dev.tensorbroadcast.arrowio.format.OutputCompression;
import dev.tensorbroadcast.arrowio.format.RowLayout;
import dev.tensorbroadcast.arrowio.format.WriteSettings;
import dev.tensorbroadcast.job.sink.FileOptions;
import dev.tensorbroadcast.planner.InvalidRequestException;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * How a result is written, the one write request of {@link TensorBroadcast}, {@link TensorReduce} and the command
 * line: the format, how its files are written (the codec and its level, the bytes per row group, the encoding, the
 * row layout: one {@link WriteSettings}, which checks each value), the output limit, the free-space check and whether
 * to overwrite. Whether the format takes those settings is the format's to say, once, when this is made
 * ({@link dev.tensorbroadcast.arrowio.format.TensorFileFormat#refusal(WriteSettings)}); only what needs the data (an
 * encoding of floats, against the dtype) or the output (a .npy path) waits for them.
 *
 * @param format the result's format, or empty when the request chooses it ({@code arrow}, or for a reduce ending in
 *     {@code .npy} {@link OutputFormat#NPY})
 * @param settings how the files are written: what reaches the format's writer
 * @param maxOutputBytes the most bytes of values written, {@link TensorBroadcast#NO_OUTPUT_LIMIT} for no limit
 */
public record WriteSpec(
        Optional<OutputFormat> format,
        WriteSettings settings,
        long maxOutputBytes,
        boolean checkFreeSpace,
        boolean overwrite) {
    /** Refuses null parts and options the format cannot honour (see {@link Builder#build}). */
    public WriteSpec {
        requireNonNull(format, "format is null");
        requireNonNull(settings, "settings is null");
        if (maxOutputBytes < 0) {
            throw refusedLimit(maxOutputBytes);
        }
        format.flatMap(chosen -> chosen.fileFormat().refusal(settings)).ifPresent(line -> {
            throw new InvalidRequestException(line);
        });
    }

    /** Arrow IPC unless told otherwise, uncompressed, PLAIN, flat rows, at most a TiB, free space checked. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this request's values, to change some of them. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.format = format.orElse(null);
        builder.compression = settings.compression();
        builder.rowGroupBytes = settings.givenRowGroupBytes();
        builder.byteStreamSplit = settings.byteStreamSplit();
        builder.rowLayout = settings.rowLayout();
        builder.maxOutputBytes = maxOutputBytes;
        builder.checkFreeSpace = checkFreeSpace;
        builder.overwrite = overwrite;
        return builder;
    }

    /** Whether the result is one {@code .npy} file rather than a dataset (reduce only). */
    public boolean npy() {
        return format.filter(OutputFormat.NPY::equals).isPresent();
    }

    /** The codec and its level. */
    public Compression compression() {
        return settings.compression();
    }

    /** Bytes of values per Parquet row group and Arrow record batch, when given. */
    public OptionalLong rowGroupBytes() {
        return settings.givenRowGroupBytes();
    }

    /** Whether Parquet float values are written BYTE_STREAM_SPLIT. */
    public boolean byteStreamSplit() {
        return settings.byteStreamSplit();
    }

    /** One flat list per row, or lists nested one level per dimension (Parquet). */
    public RowLayout rowLayout() {
        return settings.rowLayout();
    }

    /** This request with {@code chosen} as its format when none was given (checked again against it). */
    WriteSpec withDefault(OutputFormat chosen) {
        return format.isPresent()
                ? this
                : new WriteSpec(Optional.of(chosen), settings, maxOutputBytes, checkFreeSpace, overwrite);
    }

    /** How the result's files are written: arrow's for a {@code .npy}, which has no files of a dataset. */
    FileOptions files() {
        OutputFormat chosen = format.filter(written -> !written.oneFile()).orElse(OutputFormat.ARROW);
        return new FileOptions(chosen.fileFormat(), chosen.chunking(), settings);
    }

    private static InvalidRequestException refusedLimit(long bytes) {
        return new InvalidRequestException(
                "Cannot limit the output to " + bytes + " bytes: the limit must be 0 or" + " more");
    }

    /**
     * The write request's part of a builder, which {@link TensorBroadcast.Builder} and {@link TensorReduce.Builder}
     * delegate to: the options may be set in any order, and {@link #build} checks them together.
     */
    public static final class Builder {
        private OutputFormat format;
        private Compression compression = Compression.NONE;
        private OptionalLong rowGroupBytes = OptionalLong.empty();
        private boolean byteStreamSplit;
        private RowLayout rowLayout = RowLayout.FLAT;
        private long maxOutputBytes = TensorBroadcast.DEFAULT_MAX_OUTPUT_BYTES;
        private boolean checkFreeSpace = true;
        private boolean overwrite;

        private Builder() {}

        /** The result's format: a dataset's, an array's, or {@link OutputFormat#NPY} (reduce only). */
        public Builder format(OutputFormat format) {
            this.format = requireNonNull(format, "format is null");
            return this;
        }

        /** One {@code .npy} file rather than a dataset (reduce only): {@code format(OutputFormat.NPY)}. */
        public Builder npy() {
            return format(OutputFormat.NPY);
        }

        /** The codec and its level. */
        public Builder compression(Compression compression) {
            this.compression = requireNonNull(compression, "compression is null");
            return this;
        }

        /** The codec, at its default level. */
        public Builder compression(OutputCompression codec) {
            return compression(Compression.of(requireNonNull(codec, "codec is null")));
        }

        /** The zstd level, 1 (fastest) to 22 (smallest); set after {@link #compression}, which must be zstd. */
        public Builder compressionLevel(int level) {
            return compression(new Compression(compression.codec(), level));
        }

        /** Bytes of values per Parquet row group and Arrow record batch, 1 MiB to 1 GiB (at least one row each). */
        public Builder rowGroupBytes(long bytes) {
            this.rowGroupBytes = OptionalLong.of(bytes);
            return this;
        }

        /** Parquet float and double values in BYTE_STREAM_SPLIT rather than PLAIN (Parquet output of floats). */
        public Builder byteStreamSplit(boolean split) {
            this.byteStreamSplit = split;
            return this;
        }

        /**
         * How Parquet lays out a row: {@link RowLayout#FLAT} (the default: one list, with the row shape in the Arrow
         * schema) or {@link RowLayout#NESTED} (one list per dimension, which Spark reads as nested arrays).
         */
        public Builder rowLayout(RowLayout layout) {
            this.rowLayout = requireNonNull(layout, "layout is null");
            return this;
        }

        /**
         * Refuse to write more than {@code bytes} of tensor values; the default is
         * {@link TensorBroadcast#DEFAULT_MAX_OUTPUT_BYTES}, {@link TensorBroadcast#NO_OUTPUT_LIMIT} sets none. A typo
         * in a shape must not fill a cluster's storage.
         */
        public Builder maxOutputBytes(long bytes) {
            if (bytes < 0) {
                throw refusedLimit(bytes);
            }
            this.maxOutputBytes = bytes;
            return this;
        }

        /**
         * Whether to refuse an output on a local file system that has less usable space than the output's estimated
         * files (on by default; off, for instance, when compression will shrink the files). Other file systems report
         * no free space that a job could rely on, so they are not checked.
         */
        public Builder checkFreeSpace(boolean check) {
            this.checkFreeSpace = check;
            return this;
        }

        /** Replace the output if it is an empty directory or a dataset of ours (or a .npy); never anything else. */
        public Builder overwrite(boolean overwrite) {
            this.overwrite = overwrite;
            return this;
        }

        /**
         * The options, each checked, then against the format: byte-stream-split and nested rows with Parquet only,
         * none of a dataset's file options for a {@code .npy}.
         */
        public WriteSpec build() {
            return new WriteSpec(
                    Optional.ofNullable(format),
                    WriteSettings.of(rowGroupBytes, compression, byteStreamSplit, rowLayout),
                    maxOutputBytes,
                    checkFreeSpace,
                    overwrite);
        }
    }
}
