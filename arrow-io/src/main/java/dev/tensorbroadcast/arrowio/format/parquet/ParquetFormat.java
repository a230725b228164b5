package dev.tensorbroadcast.arrowio.format.parquet;

import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.DatasetFileFormat;
import dev.tensorbroadcast.arrowio.format.DatasetFileReader;
import dev.tensorbroadcast.arrowio.format.DatasetPart;
import dev.tensorbroadcast.arrowio.format.OutputCompression;
import dev.tensorbroadcast.arrowio.format.PartFooter;
import dev.tensorbroadcast.arrowio.format.PartOutput;
import dev.tensorbroadcast.arrowio.format.RowLayout;
import dev.tensorbroadcast.arrowio.format.SliceBuffer;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.format.WriteSettings;
import dev.tensorbroadcast.arrowio.kept.KeptOutput;
import dev.tensorbroadcast.arrowio.kept.KeptRows;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Partition;
import dev.tensorbroadcast.planner.Shape;
import java.io.IOException;
import java.util.Optional;
import java.util.function.LongConsumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/** Parquet files: {@link ParquetTensorFileWriter} writes them, {@link ParquetTensorReader} reads them (slices for tasks, whole files for verify and export). */
public record ParquetFormat() implements DatasetFileFormat {
    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "parquet";
    }

    @Override
    public String extension() {
        return ".parquet";
    }

    @Override
    public String description() {
        return "Parquet";
    }

    @Override
    public byte[] magic() {
        return new byte[] {'P', 'A', 'R', '1'};
    }

    @Override
    public Optional<String> whyRowsStayFlat() {
        return Optional.empty();
    }

    @Override
    public boolean splitsFloatStreams() {
        return true;
    }

    @Override
    public void write(
            TensorKernel kernel,
            Shape rowShape,
            Partition partition,
            Optional<KeptOutput> kept,
            WriteSettings settings,
            LongConsumer progress,
            PartOutput out)
            throws IOException {
        ParquetTensorFileWriter.create()
                .withBatchBytes(settings.batchBytes())
                .withProgress(progress)
                .withOptions(options(settings))
                .write(kernel, rowShape, partition, kept, out.parquetFile());
    }

    /** The Parquet writer's options for {@code settings}: the codec and its level, the encoding, the row layout. */
    static ParquetWriteOptions options(WriteSettings settings) {
        return ParquetWriteOptions.defaults()
                .withCodec(codec(settings.compression().codec()))
                .withCompressionLevel(settings.compression().level())
                .withByteStreamSplit(settings.byteStreamSplit())
                .withRowLayout(settings.rowLayout());
    }

    private static CompressionCodecName codec(OutputCompression codec) {
        return switch (codec) {
            case NONE -> CompressionCodecName.UNCOMPRESSED;
            case LZ4 -> CompressionCodecName.LZ4_RAW;
            case ZSTD -> CompressionCodecName.ZSTD;
            case GZIP -> CompressionCodecName.GZIP;
        };
    }

    @Override
    public PartFooter footer(FileSystem fileSystem, Path path, long length, Optional<String> column)
            throws IOException {
        return ParquetTensorReader.footer(fileSystem, path, length, column);
    }

    @Override
    public void readRows(
            FileSystem fileSystem,
            DatasetPart part,
            TensorDataset dataset,
            long from,
            long to,
            SliceBuffer out,
            long outRow)
            throws IOException {
        ParquetTensorReader.read(fileSystem, part, dataset, from, to, out, outRow);
    }

    @Override
    public DatasetFileReader openBatches(
            FileSystem fileSystem,
            Path path,
            long length,
            BufferAllocator allocator,
            DType dtype,
            Shape rowShape,
            RowLayout layout)
            throws IOException {
        return ParquetTensorReader.batches(fileSystem, path, length, allocator, dtype, rowShape, layout);
    }

    @Override
    public void readKept(FileSystem fileSystem, DatasetPart part, KeptRows kept, long from, long to, int at)
            throws IOException {
        ParquetTensorReader.readKept(fileSystem, part, kept, from, to, at);
    }
}
