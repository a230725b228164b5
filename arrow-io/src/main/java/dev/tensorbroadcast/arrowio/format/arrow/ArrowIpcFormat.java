package dev.tensorbroadcast.arrowio.format.arrow;

import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.DatasetFileFormat;
import dev.tensorbroadcast.arrowio.format.DatasetFileReader;
import dev.tensorbroadcast.arrowio.format.DatasetPart;
import dev.tensorbroadcast.arrowio.format.HadoopChannel;
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
import java.util.Arrays;
import java.util.Optional;
import java.util.function.LongConsumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Arrow IPC files: {@link ArrowTensorFileWriter} writes them, {@link ArrowParts} reads them, and Arrow IPC streams
 * too (such as Hugging Face {@code datasets} and {@code pa.ipc.new_stream} write), which it recognises by their first
 * message's continuation marker.
 */
public record ArrowIpcFormat() implements DatasetFileFormat {
    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "arrow";
    }

    @Override
    public String extension() {
        return ".arrow";
    }

    @Override
    public Optional<String> helpNote() {
        return Optional.of("Arrow IPC files");
    }

    @Override
    public String description() {
        return "Arrow IPC";
    }

    @Override
    public byte[] magic() {
        return new byte[] {'A', 'R', 'R', 'O', 'W', '1'};
    }

    /** A stream's first message starts with the continuation marker, as every stream since Arrow 0.15 does. */
    private static final byte[] STREAM_START = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF};

    @Override
    public boolean recognises(byte[] head) {
        return DatasetFileFormat.super.recognises(head)
                || (head.length >= STREAM_START.length
                        && Arrays.equals(head, 0, STREAM_START.length, STREAM_START, 0, STREAM_START.length));
    }

    @Override
    public Optional<String> whyRowsStayFlat() {
        return Optional.of("Arrow IPC rows are arrow.fixed_shape_tensor, which keeps their shape");
    }

    @Override
    public boolean writesToChannel() {
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
        ArrowTensorFileWriter.create()
                .withBatchBytes(settings.batchBytes())
                .withCompression(settings.compression())
                .withProgress(progress)
                .write(kernel, rowShape, partition, kept, out.channel());
    }

    @Override
    public PartFooter footer(FileSystem fileSystem, Path path, long length, Optional<String> column)
            throws IOException {
        return ArrowParts.footer(fileSystem, path, length, column);
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
        ArrowParts.read(fileSystem, part, dataset, from, to, out, outRow);
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
        return new ArrowFileBatches(new HadoopChannel(fileSystem.open(path), length), allocator, dtype, rowShape);
    }

    @Override
    public void readKept(FileSystem fileSystem, DatasetPart part, KeptRows kept, long from, long to, int at)
            throws IOException {
        ArrowParts.readKept(fileSystem, part, kept, from, to, at);
    }
}
