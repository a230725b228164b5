package dev.tensorbroadcast.job;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.format.Compression;
import dev.tensorbroadcast.arrowio.format.OutputCompression;
import dev.tensorbroadcast.arrowio.format.RowLayout;
import dev.tensorbroadcast.arrowio.format.TensorFileFormat;
import dev.tensorbroadcast.arrowio.format.npy.NpyFormat;
import dev.tensorbroadcast.job.sink.FileOptions;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Param;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * How a result is written, the one write request of {@link TensorBroadcast}, {@link TensorReduce} and the command
 * line: the format, the codec and its level, the bytes per row group, the encoding, the row layout, the output limit,
 * the free-space check and whether to overwrite. Every rule between these options is checked here, when it is made;
 * only what needs the data (an encoding of floats, against the dtype) or the output (a .npy path) waits for them.
 *
 * @param format the dataset format, or empty when the request chooses it ({@code arrow}, or for a reduce ending in
 *     {@code .npy} a {@code .npy})
 * @param npy one {@code .npy} file rather than a dataset (reduce only): takes none of a dataset's file options
 * @param rowGroupBytes bytes of values per Parquet row group and Arrow record batch, when given
 * @param maxOutputBytes the most bytes of values written, {@link TensorBroadcast#NO_OUTPUT_LIMIT} for no limit
 */
public record WriteSpec(Optional<OutputFormat> format, boolean npy, Compression compression, OptionalLong rowGroupBytes,
        boolean byteStreamSplit, RowLayout rowLayout, long maxOutputBytes, boolean checkFreeSpace, boolean overwrite) {
    private static final String NPY = "npy";

    /** Refuses null parts and options that do not go together (see {@link Builder#build}). */
    public WriteSpec {
        requireNonNull(format, "format is null");
        requireNonNull(compression, "compression is null");
        requireNonNull(rowGroupBytes, "rowGroupBytes is null");
        requireNonNull(rowLayout, "rowLayout is null");
        if (npy && format.isPresent()) {
            throw new IllegalArgumentException("a .npy has no dataset format: give one or the other");
        }
        if (maxOutputBytes < 0) {
            throw refusedLimit(maxOutputBytes);
        }
        String formatName = npy ? NPY : format.map(OutputFormat::formatName).orElse(null);
        if (formatName != null) {
            FileOptions.requireRowLayoutFits(rowLayout, formatName);
        }
        // the one check of a codec against a format: the format says what it refuses
        TensorFileFormat written = npy ? new NpyFormat() : format.map(OutputFormat::fileFormat).orElse(null);
        if (written != null) {
            written.refusal(compression).ifPresent(line -> {
                throw new InvalidRequestException(line);
            });
        }
        if (npy) {
            requireNoRowGroups(rowGroupBytes);
        }
        rowGroupBytes.ifPresent(FileOptions::requireRowGroupBytes);
        if (byteStreamSplit && formatName != null) {
            FileOptions.requireByteStreamSplitFits(formatName);
        }
    }

    /** Arrow IPC unless told otherwise, uncompressed, PLAIN, flat rows, at most a TiB, free space checked. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this request's values, to change some of them. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.format = format.orElse(null);
        builder.npy = npy;
        builder.compression = compression;
        builder.rowGroupBytes = rowGroupBytes.isPresent() ? rowGroupBytes.getAsLong() : null;
        builder.byteStreamSplit = byteStreamSplit;
        builder.rowLayout = rowLayout;
        builder.maxOutputBytes = maxOutputBytes;
        builder.checkFreeSpace = checkFreeSpace;
        builder.overwrite = overwrite;
        return builder;
    }

    /** This request with {@code chosen} as its format when none was given (checked again against it). */
    WriteSpec withDefault(OutputFormat chosen) {
        return format.isPresent() || npy ? this : new WriteSpec(Optional.of(chosen), false, compression,
                rowGroupBytes, byteStreamSplit, rowLayout, maxOutputBytes, checkFreeSpace, overwrite);
    }

    /** This request as one {@code .npy} file when no format was given (checked again against it). */
    WriteSpec withDefaultNpy() {
        return format.isPresent() || npy ? this : new WriteSpec(Optional.empty(), true, compression, rowGroupBytes,
                byteStreamSplit, rowLayout, maxOutputBytes, checkFreeSpace, overwrite);
    }

    /** How a dataset's files are written: arrow for a {@code .npy}, which has no files of a dataset. */
    FileOptions files() {
        OutputFormat chosen = format.orElse(OutputFormat.ARROW);
        FileOptions files = FileOptions.defaults().withFormat(chosen.fileFormat(), chosen.chunking())
                .withCompression(compression).withByteStreamSplit(byteStreamSplit).withRowLayout(rowLayout);
        return rowGroupBytes.isPresent() ? files.withRowGroupBytes(rowGroupBytes.getAsLong()) : files;
    }

    /** A {@code .npy} is one array: a dataset's row groups cannot apply to it. */
    private static void requireNoRowGroups(OptionalLong rowGroupBytes) {
        if (rowGroupBytes.isPresent()) {
            throw new InvalidRequestException("Cannot use " + Param.ROW_GROUP_SIZE.named() + " with format npy: a"
                    + " .npy file is one array, without row groups or record batches; drop "
                    + Param.ROW_GROUP_SIZE.named() + NpyFormat.INSTEAD);
        }
    }

    private static InvalidRequestException refusedLimit(long bytes) {
        return new InvalidRequestException("Cannot limit the output to " + bytes + " bytes: the limit must be 0 or"
                + " more");
    }

    /**
     * The write request's part of a builder, which {@link TensorBroadcast.Builder} and {@link TensorReduce.Builder}
     * delegate to: the options may be set in any order, and {@link #build} checks them together.
     */
    public static final class Builder {
        private OutputFormat format;
        private boolean npy;
        private Compression compression = Compression.NONE;
        private Long rowGroupBytes;
        private boolean byteStreamSplit;
        private RowLayout rowLayout = RowLayout.FLAT;
        private long maxOutputBytes = TensorBroadcast.DEFAULT_MAX_OUTPUT_BYTES;
        private boolean checkFreeSpace = true;
        private boolean overwrite;

        private Builder() {}

        /** A dataset of this format. */
        public Builder format(OutputFormat format) {
            this.format = requireNonNull(format, "format is null");
            this.npy = false;
            return this;
        }

        /** One {@code .npy} file rather than a dataset (reduce only). */
        public Builder npy() {
            this.format = null;
            this.npy = true;
            return this;
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
            this.rowGroupBytes = bytes;
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
         * The options, checked against each other: byte-stream-split and nested rows with Parquet only, none of a
         * dataset's file options for a {@code .npy}.
         */
        public WriteSpec build() {
            return new WriteSpec(Optional.ofNullable(format), npy, compression,
                    rowGroupBytes == null ? OptionalLong.empty() : OptionalLong.of(rowGroupBytes), byteStreamSplit,
                    rowLayout, maxOutputBytes, checkFreeSpace, overwrite);
        }
    }
}
