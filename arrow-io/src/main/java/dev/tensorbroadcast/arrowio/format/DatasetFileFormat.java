package dev.tensorbroadcast.arrowio.format;

import dev.tensorbroadcast.arrowio.TensorKernel;
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
 * A format the files of a dataset can be in, one file per partition: it writes a partition's rows from the kernel
 * (with the kept columns after the tensor, in {@link dev.tensorbroadcast.arrowio.TensorFileSchema}'s order), and
 * reads a file back for planning (its footer) and in row slices (the tensor rows, the kept columns).
 */
public interface DatasetFileFormat extends TensorFileFormat {
    /**
     * Writes {@code partition}'s rows to {@code out}, which stays open, honouring {@code settings} (checked against
     * the format when the request was described: {@link #refusal}, {@link #whyRowsStayFlat},
     * {@link #splitsFloatStreams}) and telling {@code progress} the rows of each batch written.
     */
    void write(
            TensorKernel kernel,
            Shape rowShape,
            Partition partition,
            Optional<KeptOutput> kept,
            WriteSettings settings,
            LongConsumer progress,
            PartOutput out)
            throws IOException;

    /** Part files take none, lz4 or zstd: gzip is a Zarr array's codec here. */
    @Override
    default Optional<String> refusal(Compression compression) {
        return compression.codec() != OutputCompression.GZIP
                ? Optional.empty()
                : Optional.of(compression.refusedBy(
                        name(),
                        compression.codec().codecName(),
                        "gzip is Zarr's codec" + " here; arrow and parquet files take none, lz4 or zstd"));
    }

    /**
     * Whether the writer goes through {@link PartOutput#channel()}: then a local file is opened as a file channel,
     * so direct buffers reach it without a copy through the heap.
     */
    default boolean writesToChannel() {
        return false;
    }

    /**
     * What the file at {@code path} ({@code length} bytes) holds, from its footer: the tensor column (the one named,
     * or the only candidate), its chunks and other columns. A file that is not a readable one of this format is a
     * {@link dev.tensorbroadcast.arrowio.format.SourceFormatException}.
     */
    PartFooter footer(FileSystem fileSystem, Path path, long length, Optional<String> column) throws IOException;

    /**
     * Copies file rows {@code [from, to)} of {@code part}'s tensor column into {@code out} from row {@code outRow}
     * on, reading only the chunks that hold them.
     */
    void readRows(
            FileSystem fileSystem,
            DatasetPart part,
            TensorDataset dataset,
            long from,
            long to,
            SliceBuffer out,
            long outRow)
            throws IOException;

    /**
     * Opens the file at {@code path} ({@code length} bytes, checked by the caller) for reading its tensor column
     * batch by batch, whole ({@code verify} and {@code export}): the file must be exactly what this tool writes for
     * {@code dtype} rows of {@code rowShape} laid out as {@code layout}, else reading says why in an
     * {@link IOException}.
     */
    DatasetFileReader openBatches(
            FileSystem fileSystem,
            Path path,
            long length,
            BufferAllocator allocator,
            DType dtype,
            Shape rowShape,
            RowLayout layout)
            throws IOException;

    /** Copies file rows {@code [from, to)} of {@code part}'s kept columns into {@code kept} from row {@code at} on. */
    void readKept(FileSystem fileSystem, DatasetPart part, KeptRows kept, long from, long to, int at)
            throws IOException;
}
