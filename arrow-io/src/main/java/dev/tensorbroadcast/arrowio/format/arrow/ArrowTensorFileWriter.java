package dev.tensorbroadcast.arrowio.format.arrow;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.ArrowWriteResult;
import dev.tensorbroadcast.arrowio.PartialFiles;
import dev.tensorbroadcast.arrowio.TensorBatch;
import dev.tensorbroadcast.arrowio.TensorColumn;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.Compression;
import dev.tensorbroadcast.arrowio.format.OutputCompression;
import dev.tensorbroadcast.arrowio.kept.KeptOutput;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Partition;
import dev.tensorbroadcast.planner.Shape;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.util.Optional;
import java.util.function.LongConsumer;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.compression.NoCompressionCodec;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Writes one partition of a broadcast output as an Arrow IPC file: columns {@code index} (int64, the row's position
 * in the whole output) and {@code tensor} (see {@link TensorColumn#field}), in record batches of about
 * {@link #batchBytes()} of values and at least one row each. The vectors are allocated once per file at the size of
 * the largest batch and refilled for every batch, so memory is bounded by the batch size whatever the partition size.
 */
public final class ArrowTensorFileWriter {
    private final long batchBytes;
    /** The codec and its level, checked by {@link Compression}; gzip is refused when a file is written. */
    private final Compression compression;

    /** Whether a batch whose tensor repeats an earlier one's takes its compressed buffers (see CompressOnceCodec). */
    private final boolean reuseRepeats;
    /** Told the rows of every batch once it is written. */
    private final LongConsumer rowsWritten;

    private ArrowTensorFileWriter(
            long batchBytes, Compression compression, boolean reuseRepeats, LongConsumer rowsWritten) {
        this.batchBytes = batchBytes;
        this.compression = compression;
        this.reuseRepeats = reuseRepeats;
        this.rowsWritten = rowsWritten;
    }

    public static ArrowTensorFileWriter create() {
        return new ArrowTensorFileWriter(TensorBatch.DEFAULT_BATCH_BYTES, Compression.NONE, true, rows -> {});
    }

    /** Batches of about this many bytes of values (at least one row each). */
    public ArrowTensorFileWriter withBatchBytes(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("Cannot use batch size " + bytes + ": it must be at least 1 byte");
        }
        return new ArrowTensorFileWriter(bytes, compression, reuseRepeats, rowsWritten);
    }

    /** The body codec and its level: none, lz4 or zstd (the two the IPC format defines); 0 is zstd's default. */
    public ArrowTensorFileWriter withCompression(Compression compression) {
        return new ArrowTensorFileWriter(
                batchBytes, requireNonNull(compression, "compression is null"), reuseRepeats, rowsWritten);
    }

    /**
     * Whether a batch whose tensor holds the same values as an earlier batch of the file, as the copy program proves,
     * takes that batch's compressed buffers instead of compressing again (on by default; the file is the same).
     */
    public ArrowTensorFileWriter withRepeatsReused(boolean reuse) {
        return new ArrowTensorFileWriter(batchBytes, compression, reuse, rowsWritten);
    }

    /** Tells {@code rows} the row count of every batch once it is written: a task's progress inside its file. */
    public ArrowTensorFileWriter withProgress(LongConsumer rows) {
        return new ArrowTensorFileWriter(batchBytes, compression, reuseRepeats, requireNonNull(rows, "rows is null"));
    }

    public long batchBytes() {
        return batchBytes;
    }

    public Compression compression() {
        return compression;
    }

    /** Arrow's name of the codec: the IPC format defines lz4 frames and zstd. */
    private CompressionUtil.CodecType codecType() {
        return switch (compression.codec()) {
            case NONE -> CompressionUtil.CodecType.NO_COMPRESSION;
            case LZ4 -> CompressionUtil.CodecType.LZ4_FRAME;
            case ZSTD -> CompressionUtil.CodecType.ZSTD;
            case GZIP ->
                throw new IllegalArgumentException(
                        "Cannot write Arrow IPC with gzip: the format defines" + " lz4 and zstd bodies only");
        };
    }

    /** Writes to a new file at {@code path}, replacing any file there; if the write fails, no file remains. */
    public ArrowWriteResult write(
            TensorKernel kernel, Shape rowShape, Partition partition, FileSystem fileSystem, Path path)
            throws IOException {
        requireNonNull(fileSystem, "fileSystem is null");
        requireNonNull(path, "path is null");
        FSDataOutputStream out = fileSystem.create(path, true);
        try {
            try (out) {
                return write(kernel, rowShape, partition, out);
            }
        } catch (Throwable e) {
            PartialFiles.delete(fileSystem, path, e);
            throw e;
        }
    }

    /** Writes the file to {@code out}, which stays open. */
    public ArrowWriteResult write(TensorKernel kernel, Shape rowShape, Partition partition, OutputStream out)
            throws IOException {
        return write(kernel, rowShape, partition, Channels.newChannel(requireNonNull(out, "out is null")));
    }

    /** Writes the file to {@code out}, which stays open. */
    public ArrowWriteResult write(TensorKernel kernel, Shape rowShape, Partition partition, WritableByteChannel out)
            throws IOException {
        return write(kernel, rowShape, partition, Optional.empty(), out);
    }

    /** Writes the file to {@code out}, which stays open, with the {@code kept} columns after the tensor. */
    public ArrowWriteResult write(
            TensorKernel kernel,
            Shape rowShape,
            Partition partition,
            Optional<KeptOutput> kept,
            WritableByteChannel out)
            throws IOException {
        requireNonNull(out, "out is null");
        CountingChannel channel = new CountingChannel(out);
        int batches;
        long reused = 0;
        try (TensorBatch batch = TensorBatch.allocate(kernel, rowShape, partition, batchBytes, kept);
                CompressOnceCodec once = compressOnce(batch);
                ArrowFileWriter writer = new ArrowFileWriter(
                        batch.root(),
                        null,
                        channel,
                        null,
                        IpcOption.DEFAULT,
                        once == null ? codecFactory() : new OneCodec(once),
                        codecType(),
                        compression.level() > 0 ? Optional.of(compression.level()) : Optional.empty())) {
            writer.start();
            batches = batch.writeAll((firstRow, rows) -> {
                writer.writeBatch();
                rowsWritten.accept(rows);
            });
            writer.end();
            reused = once == null ? 0 : once.reusedBatches();
        }
        return new ArrowWriteResult(partition.rowCount(), channel.bytes(), batches, reused);
    }

    private CompressionCodec.Factory codecFactory() {
        return compression.codec() == OutputCompression.NONE ? NoCompressionCodec.Factory.INSTANCE : IpcCodecs.INSTANCE;
    }

    /** The codec that compresses repeated batches once, or null when nothing is compressed or reuse is off. */
    private CompressOnceCodec compressOnce(TensorBatch batch) {
        if (compression.codec() == OutputCompression.NONE || !reuseRepeats) {
            return null;
        }
        CompressionCodec codec = compression.level() > 0
                ? IpcCodecs.INSTANCE.createCodec(codecType(), compression.level())
                : IpcCodecs.INSTANCE.createCodec(codecType());
        return CompressOnceCodec.of(codec, compression.level(), batch, batchBytes);
    }

    /** Hands the writer the codec made for this file, whatever type and level it asks for (the same ones). */
    private record OneCodec(CompressionCodec codec) implements CompressionCodec.Factory {
        @Override
        public CompressionCodec createCodec(CompressionUtil.CodecType codecType) {
            return codec;
        }

        @Override
        public CompressionCodec createCodec(CompressionUtil.CodecType codecType, int compressionLevel) {
            return codec;
        }
    }

    /** Rows per batch: about {@link #batchBytes} of values and indexes, at least 1, within Arrow's int32 limits. */
    int rowsPerBatch(DType dtype, Shape rowShape, int maxStringBytes, long partitionRows) {
        return TensorBatch.rowsPerBatch(batchBytes, dtype, rowShape, maxStringBytes, partitionRows);
    }
}
