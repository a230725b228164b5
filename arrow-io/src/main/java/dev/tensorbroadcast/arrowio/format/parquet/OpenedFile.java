package dev.tensorbroadcast.arrowio.format.parquet;

import java.io.IOException;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * An output file that keeps the stream it opened. A {@code ParquetFileWriter} that fails while starting marks itself
 * aborted and then leaves its stream open on close; this lets the caller close it.
 */
final class OpenedFile implements OutputFile {
    private final OutputFile file;
    private PositionOutputStream stream;

    OpenedFile(OutputFile file) {
        this.file = file;
    }

    @Override
    public PositionOutputStream create(long blockSizeHint) throws IOException {
        stream = file.create(blockSizeHint);
        return stream;
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
        stream = file.createOrOverwrite(blockSizeHint);
        return stream;
    }

    @Override
    public boolean supportsBlockSize() {
        return file.supportsBlockSize();
    }

    @Override
    public long defaultBlockSize() {
        return file.defaultBlockSize();
    }

    @Override
    public String getPath() {
        return file.getPath();
    }

    /** Closes the stream, if one was opened, after {@code failure}, to which a failure to close is added. */
    void closeAfter(Throwable failure) {
        if (stream == null) {
            return;
        }
        try {
            stream.close();
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }
}
