package dev.tensorbroadcast.arrowio.source;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.SourceRows;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Reads ranges of a {@code .npy}'s rows from its file, by offset: a task reads its rows and nothing else, opening the
 * file once and reading every chunk into the same buffer when the chunks are the same size.
 */
public final class NpyRows implements Closeable {
    private final Path path;
    private final NpyLayout layout;
    private final FSDataInputStream in;
    private byte[] buffer = new byte[0];

    private NpyRows(Path path, NpyLayout layout, FSDataInputStream in) {
        this.path = path;
        this.layout = layout;
        this.in = in;
    }

    public static NpyRows open(FileSystem fileSystem, Path path, NpyLayout layout) throws IOException {
        requireNonNull(layout, "layout is null");
        return new NpyRows(path, layout, fileSystem.open(path));
    }

    /** Rows {@code rows} of the file in one pass, fewer than 2^31 bytes of them. */
    public static SourceTensor read(FileSystem fileSystem, Path path, NpyLayout layout, SourceRows rows)
            throws IOException {
        try (NpyRows reader = open(fileSystem, path, layout)) {
            return reader.read(rows, false);
        }
    }

    /**
     * Rows {@code rows} as a tensor of that many rows. With {@code reuse} the tensor's values are this reader's
     * buffer, valid until the next read; without it they are the caller's.
     */
    public SourceTensor read(SourceRows rows, boolean reuse) throws IOException {
        if (rows.end() > layout.rows()) {
            throw new IndexOutOfBoundsException("rows " + rows + " outside the file's " + layout.rows());
        }
        long bytes = rows.count() * layout.rowBytes();
        if (bytes > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("read fewer rows at once than " + rows + " (" + bytes + " bytes)");
        }
        byte[] values = reuse && buffer.length == bytes ? buffer : new byte[(int) bytes];
        if (reuse) {
            buffer = values;
        }
        try {
            in.readFully(layout.dataStart() + rows.first() * layout.rowBytes(), values);
        } catch (EOFException e) {
            throw new SourceFormatException(path.toString(), "the file ends before row " + (rows.end() - 1)
                    + "; it was changed while being read");
        }
        if (layout.swapWidth() > 0) {
            Layouts.swapBytes(values, layout.swapWidth());
        }
        long[] dims = layout.shape().dims();
        if (dims.length > 0) {
            dims[0] = rows.count();
        }
        return SourceTensor.fixedWidth(layout.dtype(), Shape.of(dims), values, null);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
