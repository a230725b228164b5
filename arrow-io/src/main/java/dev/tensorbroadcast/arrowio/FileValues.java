package dev.tensorbroadcast.arrowio;

import static java.util.Objects.requireNonNull;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * A source's fixed-width values read from a file ({@link SourceTensor#inFile}) into native memory. A run of at least
 * {@link #DIRECT_BYTES} (a batch's values, a Zarr chunk's rows of a wide chunk) is read straight into its target: one
 * positional read, nothing read that is not used. A shorter one (the rows of a narrow chunk, a few values apart) is
 * copied from a window of {@link #WINDOW_BYTES} read ahead from where it starts, so the runs of a chunk row that fits
 * in the window cost one read together, not a system call each. Memory stays the window's, whatever the file's size.
 * Not thread-safe, as the kernel that holds it.
 */
final class FileValues {
    /** Runs of at least this many bytes are read straight into their target. */
    static final int DIRECT_BYTES = 16 << 10;
    /** The bytes read ahead for shorter runs. */
    static final int WINDOW_BYTES = 8 << 20;

    private final FileChannel file;
    private final long size;
    private ByteBuffer window;
    private long windowStart;
    private long windowEnd;

    FileValues(FileChannel file, long size) {
        this.file = requireNonNull(file, "file is null");
        this.size = size;
    }

    /** Copies the {@code length} bytes at {@code position} of the file to native memory at {@code target}. */
    void copy(long position, long target, long length) {
        if (length <= 0) {
            return;
        }
        if (position < 0 || position > size - length) {
            throw new IndexOutOfBoundsException(
                    "bytes [" + position + ", " + (position + length) + ") outside the file's " + size);
        }
        try {
            if (length >= DIRECT_BYTES) {
                for (long done = 0; done < length; ) {
                    int count = (int) Math.min(length - done, Integer.MAX_VALUE - 8);
                    read(position + done, MemoryUtil.directBuffer(target + done, count));
                    done += count;
                }
                return;
            }
            if (position < windowStart || position + length > windowEnd) {
                if (window == null) {
                    window = ByteBuffer.allocateDirect(WINDOW_BYTES);
                }
                window.clear().limit((int) Math.min(WINDOW_BYTES, size - position));
                read(position, window);
                windowStart = position;
                windowEnd = position + window.limit();
            }
            MemoryUtil.copyMemory(MemoryUtil.getByteBufferAddress(window) + (position - windowStart), target, length);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read source values at byte " + position + " of their file", e);
        }
    }

    private void read(long position, ByteBuffer into) throws IOException {
        long at = position;
        while (into.hasRemaining()) {
            int read = file.read(into, at);
            if (read < 0) {
                throw new EOFException("the file ends at byte " + at + " of " + size);
            }
            at += read;
        }
    }
}
