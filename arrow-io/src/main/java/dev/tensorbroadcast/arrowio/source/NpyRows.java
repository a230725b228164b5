package dev.tensorbroadcast.arrowio.source;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.planner.SourceRows;
import java.io.EOFException;
import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** Reads a range of a {@code .npy}'s rows from its file, by offset: a task reads its rows and nothing else. */
public final class NpyRows {
    private NpyRows() {}

    /** Rows {@code rows} of the file, as a tensor of that many rows; fewer than 2^31 bytes at once. */
    public static SourceTensor read(FileSystem fileSystem, Path path, NpyLayout layout, SourceRows rows)
            throws IOException {
        requireNonNull(layout, "layout is null");
        if (rows.end() > layout.rows()) {
            throw new IndexOutOfBoundsException("rows " + rows + " outside the file's " + layout.rows());
        }
        long bytes = rows.count() * layout.rowBytes();
        if (bytes > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("read fewer rows at once than " + rows + " (" + bytes + " bytes)");
        }
        byte[] values = new byte[(int) bytes];
        try (FSDataInputStream in = fileSystem.open(path)) {
            in.readFully(layout.dataStart() + rows.first() * layout.rowBytes(), values);
        } catch (EOFException e) {
            throw new SourceFormatException(path.toString(), "the file ends before row " + (rows.end() - 1)
                    + "; it was changed while being read");
        }
        if (layout.swapWidth() > 0) {
            Layouts.swapBytes(values, layout.swapWidth());
        }
        long[] dims = layout.shape().rank() == 0 ? new long[0] : layout.shape().dims();
        if (dims.length > 0) {
            dims[0] = rows.count();
        }
        return SourceTensor.fixedWidth(layout.dtype(), dev.tensorbroadcast.planner.Shape.of(dims), values, null);
    }
}
