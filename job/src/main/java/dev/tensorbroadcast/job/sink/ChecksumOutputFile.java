package dev.tensorbroadcast.job.sink;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/** A Parquet {@link OutputFile} over an already open {@link ChecksumOutputStream}, which it does not own. */
public final class ChecksumOutputFile implements OutputFile {
    private final ChecksumOutputStream out;
    private final String name;

    public ChecksumOutputFile(ChecksumOutputStream out, String name) {
        this.out = requireNonNull(out, "out is null");
        this.name = requireNonNull(name, "name is null");
    }

    @Override
    public PositionOutputStream create(long blockSizeHint) {
        return new PositionOutputStream() {
            @Override
            public long getPos() {
                return out.bytes();
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
                // the task closes the file after the writer is done, so it can read the final size and checksum
                out.flush();
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
        return name;
    }
}
