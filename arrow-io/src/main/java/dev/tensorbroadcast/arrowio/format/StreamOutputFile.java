package dev.tensorbroadcast.arrowio.format;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.OutputStream;
import java.util.function.LongSupplier;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet {@link OutputFile} over an output stream that is already open, whose position the caller counts: the one
 * adapter between the Parquet writer and whatever a file is written to (a checksummed task file, a test's failing
 * disk, a benchmark's counter).
 */
public final class StreamOutputFile implements OutputFile {
    private final OutputStream out;
    private final LongSupplier position;
    private final String path;
    private final boolean closes;

    private StreamOutputFile(OutputStream out, LongSupplier position, String path, boolean closes) {
        this.out = requireNonNull(out, "out is null");
        this.position = requireNonNull(position, "position is null");
        this.path = requireNonNull(path, "path is null");
        this.closes = closes;
    }

    /** A file that closes {@code out} when the writer closes it. */
    public static StreamOutputFile over(OutputStream out, LongSupplier position, String path) {
        return new StreamOutputFile(out, position, path, true);
    }

    /**
     * A file that only flushes {@code out} when the writer closes it: the caller closes it after the writer is done,
     * so it can still read the final size and checksum.
     */
    public static StreamOutputFile borrowing(OutputStream out, LongSupplier position, String path) {
        return new StreamOutputFile(out, position, path, false);
    }

    @Override
    public PositionOutputStream create(long blockSizeHint) {
        return new PositionOutputStream() {
            @Override
            public long getPos() {
                return position.getAsLong();
            }

            @Override
            public void write(int b) throws IOException {
                out.write(b);
            }

            @Override
            public void write(byte[] buffer, int offset, int length) throws IOException {
                out.write(buffer, offset, length);
            }

            @Override
            public void flush() throws IOException {
                out.flush();
            }

            @Override
            public void close() throws IOException {
                if (closes) {
                    out.close();
                } else {
                    out.flush();
                }
            }
        };
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint) {
        return create(blockSizeHint);
    }

    @Override
    public boolean supportsBlockSize() {
        return false;
    }

    @Override
    public long defaultBlockSize() {
        return 0;
    }

    @Override
    public String getPath() {
        return path;
    }
}
