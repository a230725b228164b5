package dev.tensorbroadcast.job;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.format.OutputCompression;
import dev.tensorbroadcast.arrowio.format.RowLayout;

/**
 * The part of a request's builder that says how its result is written: one {@link WriteSpec}, set whole or option by
 * option. {@link TensorBroadcast.Builder} and {@link TensorReduce.Builder} share it, so a broadcast and its adjoint
 * take the same write options; each adds its own format setter (a reduce may also write a {@code .npy}). The options
 * are checked against each other when the request is built.
 *
 * @param <B> the builder, returned by every setter for chaining
 */
public abstract class WriteBuilder<B extends WriteBuilder<B>> extends DialectBuilder<B> {
    WriteSpec.Builder write = WriteSpec.builder();

    WriteBuilder() {}

    /**
     * The whole write request (format, codec, row groups, encoding, row layout, output limit, free-space check and
     * overwrite), in place of what the setters gave.
     */
    public final B write(WriteSpec spec) {
        write = requireNonNull(spec, "spec is null").toBuilder();
        return self();
    }

    /** The codec of a dataset's files (a {@code .npy} takes none), at its default level. */
    public final B compression(OutputCompression compression) {
        write.compression(compression);
        return self();
    }

    /** The zstd level, 1 (fastest) to 22 (smallest); set after {@link #compression}, which must be zstd. */
    public final B compressionLevel(int level) {
        write.compressionLevel(level);
        return self();
    }

    /** Bytes of values per Parquet row group and Arrow record batch, 1 MiB to 1 GiB (at least one row each). */
    public final B rowGroupBytes(long bytes) {
        write.rowGroupBytes(bytes);
        return self();
    }

    /** Parquet float and double values in BYTE_STREAM_SPLIT rather than PLAIN (Parquet output of floats only). */
    public final B byteStreamSplit(boolean split) {
        write.byteStreamSplit(split);
        return self();
    }

    /**
     * How Parquet lays out a row: {@link RowLayout#FLAT} (the default: one list, with the row shape in the Arrow
     * schema) or {@link RowLayout#NESTED} (one list per dimension, for readers without Arrow's tensor type).
     */
    public final B rowLayout(RowLayout layout) {
        write.rowLayout(layout);
        return self();
    }

    /**
     * Refuse to write more than {@code bytes} of tensor values; the default is
     * {@link TensorBroadcast#DEFAULT_MAX_OUTPUT_BYTES}, {@link TensorBroadcast#NO_OUTPUT_LIMIT} sets none. A typo in a
     * shape must not fill a cluster's storage.
     */
    public final B maxOutputBytes(long bytes) {
        write.maxOutputBytes(bytes);
        return self();
    }

    /**
     * Whether to refuse a result on a local file system that has less usable space than its estimated files (on by
     * default; off for instance when compression will shrink the files). Other file systems report no free space that
     * a job could rely on, so they are not checked.
     */
    public final B checkFreeSpace(boolean check) {
        write.checkFreeSpace(check);
        return self();
    }

    /**
     * Replace the output if it is an empty directory or a dataset of ours (for a reduce, also a {@code .npy}); never
     * anything else. The old one stays until the new one is complete.
     */
    public final B overwrite(boolean overwrite) {
        write.overwrite(overwrite);
        return self();
    }
}
