package dev.tensorbroadcast.arrowio.format;

import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.planner.DType;
import java.io.IOException;
import java.util.Optional;
import java.util.function.LongConsumer;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A format that stores the whole output as one chunked N-d array (Zarr v3), where a {@link DatasetFileFormat} stores
 * rows in one file per partition. The difference is why this is a contract of its own: an array is many objects
 * named by their place in a chunk grid, one of which (the metadata) makes the others readable; a task writes the
 * whole chunk (or shard) objects of its slab of the first dim, and the driver writes the metadata after every task
 * committed. Its readers read the array, not a file.
 */
public interface ArrayFileFormat extends TensorFileFormat {
    /** The object that makes the array readable, written last: {@code zarr.json}. */
    String metadataName();

    /** Why values of {@code dtype} cannot be stored (the words after "Cannot write ... as NAME: "), or empty. */
    Optional<String> whyNotStored(DType dtype);

    /** The most bytes one chunk may hold: a chunk is filled and encoded on the heap whole. */
    long maxChunkBytes();

    /** The metadata object of an array laid out as {@code layout}. */
    byte[] metadata(ArrayLayout layout);

    /**
     * Writes every block (chunk, or shard when sharded) of {@code layout} whose first-dim extent starts in
     * {@code [first, end)} ({@code first} a multiple of the block's first dim) as one object each through
     * {@code sink}, filling values from {@code kernel}, and tells {@code progress} the elements written.
     */
    void write(TensorKernel kernel, ArrayLayout layout, long first, long end, ObjectSink sink, LongConsumer progress)
            throws IOException;

    /** Opens the array in the directory {@code root} for reading, from its metadata. */
    ArrayReader open(FileSystem fileSystem, Path root) throws IOException;
}
