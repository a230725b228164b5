package dev.tensorbroadcast.arrowio.source;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.ArrayFileFormat;
import dev.tensorbroadcast.arrowio.format.ArrayLayout;
import dev.tensorbroadcast.arrowio.format.ArrayReader;
import dev.tensorbroadcast.arrowio.format.DatasetChunk;
import dev.tensorbroadcast.arrowio.format.DatasetPart;
import dev.tensorbroadcast.arrowio.format.Layouts;
import dev.tensorbroadcast.arrowio.format.SourceLimits;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * An array (Zarr v3) as a source: opened as a dataset whose rows are the first dim's ({@link #dataset}), which the
 * tasks read in slices (or the driver reads whole and ships, up to the ship threshold); a scalar array is read whole
 * onto the heap ({@link #read}), within the source heap limit, as a {@code .npy} is.
 */
public final class ArraySources {
    /**
     * Most row groups an array's dataset lists: runs of whole chunk rows, so that partitions cut at them read no
     * chunk twice, and few enough that every task carries the list cheaply.
     */
    static final int MAX_ROW_GROUPS = 1024;

    private ArraySources() {}

    /**
     * The array in {@code directory} as a dataset of its first dim's rows, from its metadata alone: one part (the
     * directory) whose row groups are runs of whole chunk rows, each counted at its decoded bytes. A scalar array has
     * no rows: read it with {@link #read}.
     */
    public static TensorDataset dataset(ArrayFileFormat format, FileSystem fileSystem, Path directory, String location)
            throws IOException {
        ArrayLayout layout = format.open(fileSystem, directory).layout();
        long[] shape = layout.shape().dims();
        if (shape.length == 0) {
            throw new IllegalArgumentException("a scalar array has no rows");
        }
        long rowElements = 1;
        for (int i = 1; i < shape.length; i++) {
            rowElements = Math.multiplyExact(rowElements, shape[i]);
        }
        DType dtype = layout.dtype();
        long chunkRows = layout.chunks()[0];
        long chunkRowCount = shape[0] == 0 ? 0 : (shape[0] + chunkRows - 1) / chunkRows;
        long groupRows = chunkRows * Math.max(1, (chunkRowCount + MAX_ROW_GROUPS - 1) / MAX_ROW_GROUPS);
        List<DatasetChunk> groups = new ArrayList<>();
        long bytes = 0;
        for (long first = 0; first < shape[0]; first += groupRows) {
            long rows = Math.min(groupRows, shape[0] - first);
            long groupBytes =
                    Math.multiplyExact(Math.multiplyExact(rows, rowElements), (long) ArrayLayout.storedBytes(dtype));
            groups.add(new DatasetChunk(rows, groupBytes));
            bytes += groupBytes;
        }
        long[] rowShape = java.util.Arrays.copyOfRange(shape, 1, shape.length);
        DatasetPart part = new DatasetPart(
                fileSystem.makeQualified(directory).toString(), new ArrayRows(format), 0, bytes, groups);
        return new TensorDataset(location, format.name(), dtype, Shape.of(rowShape), false, List.of(part));
    }

    /** The array format whose metadata is in {@code directory}, if one is. */
    public static Optional<ArrayFileFormat> formatOf(FileSystem fileSystem, Path directory) throws IOException {
        for (ArrayFileFormat format : TensorFileFormats.arrayFormats()) {
            if (fileSystem.isFile(new Path(directory, format.metadataName()))) {
                return Optional.of(format);
            }
        }
        return Optional.empty();
    }

    /** The rank of the array in {@code directory}, from its metadata. */
    public static int rank(ArrayFileFormat format, FileSystem fileSystem, Path directory) throws IOException {
        return format.open(fileSystem, directory).layout().shape().rank();
    }

    public static SourceTensor read(
            ArrayFileFormat format, FileSystem fileSystem, Path directory, String name, SourceLimits limits)
            throws IOException {
        ArrayReader reader = format.open(fileSystem, directory);
        ArrayLayout layout = reader.layout();
        DType dtype = layout.dtype();
        long elements = layout.shape().elements();
        long bytes = Math.multiplyExact(elements, (long) ArrayLayout.storedBytes(dtype));
        limits.check(
                name,
                dtype == DType.BOOL ? bytes + (elements + 7) / 8 : bytes,
                "its " + elements + " " + dtype.typeName() + " elements");
        long[] shape = layout.shape().dims();
        byte[] values = shape.length == 0 ? reader.readSlab(0, 1) : reader.readSlab(0, shape[0]);
        return SourceTensor.fixedWidth(
                dtype,
                layout.shape(),
                dtype == DType.BOOL ? Layouts.packBits(values, Math.toIntExact(elements)) : values,
                null);
    }
}
