package dev.tensorbroadcast.arrowio.format.parquet;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.ArrowWriteResult;
import dev.tensorbroadcast.arrowio.PartialFiles;
import dev.tensorbroadcast.arrowio.TensorBatch;
import dev.tensorbroadcast.arrowio.TensorColumn;
import dev.tensorbroadcast.arrowio.TensorFileSchema;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.kept.KeptOutput;
import dev.tensorbroadcast.planner.Partition;
import dev.tensorbroadcast.planner.Shape;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.apache.parquet.io.OutputFile;

/**
 * Writes one partition as a Parquet file: the kernel fills a batch of rows into reused Arrow vectors (the same
 * {@link TensorBatch} the Arrow IPC writer uses), and {@link ParquetTensorWriter} turns each batch into a row group.
 * Memory is bounded by the batch size, whatever the partition's size.
 */
public final class ParquetTensorFileWriter {
    private final long batchBytes;
    private final ParquetWriteOptions options;
    /** Told the rows of every row group once it is written. */
    private final LongConsumer rowsWritten;

    private ParquetTensorFileWriter(long batchBytes, ParquetWriteOptions options, LongConsumer rowsWritten) {
        if (batchBytes <= 0) {
            throw new IllegalArgumentException("batchBytes must be positive: " + batchBytes);
        }
        this.batchBytes = batchBytes;
        this.options = requireNonNull(options, "options is null");
        this.rowsWritten = requireNonNull(rowsWritten, "rowsWritten is null");
    }

    public static ParquetTensorFileWriter create() {
        return new ParquetTensorFileWriter(TensorBatch.DEFAULT_BATCH_BYTES, ParquetWriteOptions.defaults(), rows -> {});
    }

    /** About this many bytes of values per batch, hence per row group; at least one row. */
    public ParquetTensorFileWriter withBatchBytes(long bytes) {
        return new ParquetTensorFileWriter(bytes, options, rowsWritten);
    }

    public ParquetTensorFileWriter withOptions(ParquetWriteOptions options) {
        return new ParquetTensorFileWriter(batchBytes, options, rowsWritten);
    }

    /** Tells {@code rows} the row count of every row group once it is written: a task's progress inside its file. */
    public ParquetTensorFileWriter withProgress(LongConsumer rows) {
        return new ParquetTensorFileWriter(batchBytes, options, rows);
    }

    /** Writes the partition to a new file at {@code path}, which must not exist; if the write fails, none remains. */
    public ArrowWriteResult write(
            TensorKernel kernel, Shape rowShape, Partition partition, FileSystem fileSystem, Path path)
            throws IOException {
        requireNonNull(fileSystem, "fileSystem is null");
        requireNonNull(path, "path is null");
        return write(
                kernel,
                rowShape,
                partition,
                Optional.empty(),
                HadoopOutputFile.fromPath(path, fileSystem.getConf()),
                failure -> PartialFiles.delete(fileSystem, path, failure));
    }

    /** Writes the partition to {@code file}, which must not exist. */
    public ArrowWriteResult write(TensorKernel kernel, Shape rowShape, Partition partition, OutputFile file)
            throws IOException {
        return write(kernel, rowShape, partition, Optional.empty(), file);
    }

    /** Writes the partition to {@code file}, which must not exist, with the {@code kept} columns after the tensor. */
    public ArrowWriteResult write(
            TensorKernel kernel, Shape rowShape, Partition partition, Optional<KeptOutput> kept, OutputFile file)
            throws IOException {
        return write(kernel, rowShape, partition, kept, file, failure -> {});
    }

    /** {@code discard} is called when a write fails after creating the file. */
    private ArrowWriteResult write(
            TensorKernel kernel,
            Shape rowShape,
            Partition partition,
            Optional<KeptOutput> kept,
            OutputFile file,
            Consumer<Throwable> discard)
            throws IOException {
        requireNonNull(file, "file is null");
        int batches;
        long bytes;
        ParquetTensorWriter writer;
        try (TensorBatch batch = TensorBatch.allocate(kernel, rowShape, partition, batchBytes, kept)) {
            writer = ParquetTensorWriter.create(
                    file,
                    new TensorColumn(TensorFileSchema.TENSOR_COLUMN, kernel.dtype(), rowShape),
                    kept.map(KeptOutput::columns).orElse(List.of()),
                    options);
            writer.reuseRepeats(kernel.program(), batch.rowElements(), batchBytes);
            writer.shareWithJob(kernel);
            batch.repeatWith(writer);
            try {
                try (writer) {
                    batches = batch.writeAll((firstRow, rows) -> {
                        writer.write(firstRow, rows, batch.index(), batch.values(), batch.kept());
                        rowsWritten.accept(rows);
                    });
                }
            } catch (Throwable e) {
                discard.accept(e);
                throw e;
            }
            bytes = writer.bytesWritten();
        }
        return new ArrowWriteResult(partition.rowCount(), bytes, batches, writer.reusedPages());
    }
}
