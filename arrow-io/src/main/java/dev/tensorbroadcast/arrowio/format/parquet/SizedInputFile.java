package dev.tensorbroadcast.arrowio.format.parquet;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.util.HadoopStreams;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A Parquet {@link InputFile} on a Hadoop file system whose length the caller already knows (from a listing or a
 * manifest), so opening it costs no status call; parquet-java's own {@code HadoopInputFile} asks for one.
 */
public final class SizedInputFile implements InputFile {
    private final FileSystem fileSystem;
    private final Path path;
    private final long length;

    public SizedInputFile(FileSystem fileSystem, Path path, long length) {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.path = requireNonNull(path, "path is null");
        this.length = length;
    }

    @Override
    public long getLength() {
        return length;
    }

    @Override
    public SeekableInputStream newStream() throws IOException {
        return HadoopStreams.wrap(fileSystem.open(path));
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
