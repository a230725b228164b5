package dev.tensorbroadcast.arrowio.format.npy;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.Layouts;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.SourceRows;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * Reads ranges of a {@code .npy}'s rows from its file, by offset: a task reads its rows and nothing else, opening the
 * file once and reading every chunk into the same buffer when the chunks are the same size. A file on the local
 * file system is read with positional reads of its own channel, not through Hadoop's stream (see {@link #open}).
 */
public final class NpyRows implements Closeable {
    private final Path path;
    private final NpyLayout layout;
    /** The Hadoop stream of a file elsewhere, or null. */
    private final FSDataInputStream in;
    /** The channel of a local file, or null. */
    private final FileChannel channel;

    private byte[] buffer = new byte[0];

    private NpyRows(Path path, NpyLayout layout, FSDataInputStream in, FileChannel channel) {
        this.path = path;
        this.layout = layout;
        this.in = in;
        this.channel = channel;
    }

    /**
     * Opens the file. A local file without a Hadoop checksum beside it (the one case where Hadoop's local stream
     * verifies nothing either) is read through a {@link FileChannel}: Hadoop's stream reads by seek and
     * {@code FileInputStream} through its checksum and buffering layers, each read copied once more by the JDK's
     * native buffer, which cost a reduce task a quarter of its CPU time (docs/benchmarks.md, issue 28).
     */
    public static NpyRows open(FileSystem fileSystem, Path path, NpyLayout layout) throws IOException {
        requireNonNull(layout, "layout is null");
        java.io.File local = localFile(fileSystem, path);
        if (local != null) {
            return new NpyRows(path, layout, null, FileChannel.open(local.toPath(), StandardOpenOption.READ));
        }
        return new NpyRows(path, layout, fileSystem.open(path), null);
    }

    /** The file behind {@code path} when Hadoop would read it unverified from the local disk, else null. */
    private static java.io.File localFile(FileSystem fileSystem, Path path) throws IOException {
        if (fileSystem instanceof RawLocalFileSystem raw) {
            return raw.pathToFile(path);
        }
        if (fileSystem instanceof LocalFileSystem checked && !checked.exists(checked.getChecksumFile(path))) {
            return checked.pathToFile(path);
        }
        return null;
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
        long position = layout.dataStart() + rows.first() * layout.rowBytes();
        try {
            if (channel != null) {
                readFully(channel, position, values);
            } else {
                in.readFully(position, values);
            }
        } catch (EOFException e) {
            throw new SourceFormatException(
                    path.toString(),
                    "the file ends before row " + (rows.end() - 1) + "; it was changed while being read");
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

    private static void readFully(FileChannel channel, long position, byte[] values) throws IOException {
        ByteBuffer into = ByteBuffer.wrap(values);
        long at = position;
        while (into.hasRemaining()) {
            int read = channel.read(into, at);
            if (read < 0) {
                throw new EOFException("end of file at byte " + at);
            }
            at += read;
        }
    }

    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close();
        } else {
            in.close();
        }
    }
}
