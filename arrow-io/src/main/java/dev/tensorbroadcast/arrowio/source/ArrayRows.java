package dev.tensorbroadcast.arrowio.source;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.ArrayFileFormat;
import dev.tensorbroadcast.arrowio.format.ArrayReader;
import dev.tensorbroadcast.arrowio.format.DatasetFileFormat;
import dev.tensorbroadcast.arrowio.format.DatasetFileReader;
import dev.tensorbroadcast.arrowio.format.DatasetPart;
import dev.tensorbroadcast.arrowio.format.PartFooter;
import dev.tensorbroadcast.arrowio.format.PartOutput;
import dev.tensorbroadcast.arrowio.format.RowLayout;
import dev.tensorbroadcast.arrowio.format.SliceBuffer;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
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

/**
 * An N-d array (Zarr v3) read as a dataset's rows: the rows of its first dim, read by the tasks in slices through
 * the array format's reader, chunk by chunk, as a dataset's files are read by row group. It stands for the array's
 * format inside a {@link TensorDataset} ({@link ArraySources#dataset}), whose one part is the array's directory;
 * it writes nothing and is never among {@code TensorFileFormats}: an array is written by its {@link ArrayFileFormat}.
 */
public record ArrayRows(ArrayFileFormat array) implements DatasetFileFormat {
    private static final long serialVersionUID = 1L;

    public ArrayRows {
        requireNonNull(array, "array is null");
    }

    @Override
    public String name() {
        return array.name();
    }

    @Override
    public String extension() {
        return array.extension();
    }

    @Override
    public String description() {
        return array.description();
    }

    @Override
    public byte[] magic() {
        return array.magic();
    }

    @Override
    public boolean recognises(byte[] head) {
        return false;
    }

    @Override
    public Optional<String> whyRowsStayFlat() {
        return array.whyRowsStayFlat();
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
        ArrayReader reader = array.open(fileSystem, new Path(part.path()));
        if (!reader.layout().shape().equals(dataset.shape()) || reader.layout().dtype() != dataset.dtype()) {
            // the array was replaced after planning
            throw new SourceFormatException(
                    part.path(),
                    "it is now " + reader.layout().shape() + " "
                            + reader.layout().dtype().typeName() + ", planned as " + dataset.shape() + " "
                            + dataset.dtype().typeName());
        }
        reader.readRows(part.firstRow() + from, to - from, out.values(), out.offset(outRow, 0));
    }

    @Override
    public void write(
            TensorKernel kernel,
            Shape rowShape,
            Partition partition,
            Optional<KeptOutput> kept,
            WriteSettings settings,
            LongConsumer progress,
            PartOutput out) {
        throw new UnsupportedOperationException(array.name() + " writes an array, not part files");
    }

    @Override
    public PartFooter footer(FileSystem fileSystem, Path path, long length, Optional<String> column) {
        throw new UnsupportedOperationException("an array has no footer; ArraySources.dataset reads its metadata");
    }

    @Override
    public DatasetFileReader openBatches(
            FileSystem fileSystem,
            Path path,
            long length,
            BufferAllocator allocator,
            DType dtype,
            Shape rowShape,
            RowLayout layout) {
        throw new UnsupportedOperationException("an array is read through " + array.name() + "'s reader");
    }

    @Override
    public void readKept(FileSystem fileSystem, DatasetPart part, KeptRows kept, long from, long to, int at) {
        throw new UnsupportedOperationException("an array holds the tensor alone: no kept columns");
    }
}
