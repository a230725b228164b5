package dev.tensorbroadcast.arrowio.source;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.ArrayFileFormat;
import dev.tensorbroadcast.arrowio.format.ArrayLayout;
import dev.tensorbroadcast.arrowio.format.ArrayReader;
import dev.tensorbroadcast.arrowio.format.TensorFileFormats;
import dev.tensorbroadcast.planner.DType;
import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * An array (Zarr v3) as a source: read whole onto the heap, chunk by chunk through its format's reader, within the
 * source heap limit, as a {@code .npy} is.
 */
public final class ArraySources {
    private ArraySources() {}

    /** The array format whose metadata is in {@code directory}, if one is. */
    public static Optional<ArrayFileFormat> formatOf(FileSystem fileSystem, Path directory) throws IOException {
        for (ArrayFileFormat format : TensorFileFormats.arrayFormats()) {
            if (fileSystem.isFile(new Path(directory, format.metadataName()))) {
                return Optional.of(format);
            }
        }
        return Optional.empty();
    }

    public static SourceTensor read(ArrayFileFormat format, FileSystem fileSystem, Path directory, String name,
            SourceLimits limits) throws IOException {
        ArrayReader reader = format.open(fileSystem, directory);
        ArrayLayout layout = reader.layout();
        DType dtype = layout.dtype();
        long elements = layout.shape().elements();
        long bytes = Math.multiplyExact(elements, (long) ArrayLayout.storedBytes(dtype));
        limits.check(name, dtype == DType.BOOL ? bytes + (elements + 7) / 8 : bytes, "its " + elements + " "
                + dtype.typeName() + " elements");
        long[] shape = layout.shape().dims();
        byte[] values = shape.length == 0 ? reader.readSlab(0, 1) : reader.readSlab(0, shape[0]);
        return SourceTensor.fixedWidth(dtype, layout.shape(), dtype == DType.BOOL
                ? Layouts.packBits(values, Math.toIntExact(elements)) : values, null);
    }
}
