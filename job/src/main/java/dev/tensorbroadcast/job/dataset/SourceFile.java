package dev.tensorbroadcast.job.dataset;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.source.ArrowSourceOptions;
import dev.tensorbroadcast.arrowio.source.ArrowSourceReader;
import dev.tensorbroadcast.arrowio.source.NpyReader;
import dev.tensorbroadcast.arrowio.source.SourceLimits;
import java.io.BufferedInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Reads a source tensor from any Hadoop file system path, choosing the reader by the file's first bytes: the
 * {@code .npy} magic means numpy, anything else is read as Arrow IPC (file or stream), whose reader names what it
 * expected when the bytes are neither.
 */
public final class SourceFile {
    private static final byte[] NPY_MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};

    private SourceFile() {}

    public static SourceTensor read(String source, Configuration conf, SourceLimits limits) throws IOException {
        Path path = new Path(source);
        FileSystem fileSystem = path.getFileSystem(conf);
        long length;
        try {
            length = fileSystem.getFileStatus(path).getLen();
        } catch (FileNotFoundException e) {
            throw new DatasetException("Cannot read source " + source + ": no such file");
        }
        String name = path.getName();
        try (InputStream in = new BufferedInputStream(fileSystem.open(path), 1 << 16)) {
            in.mark(NPY_MAGIC.length);
            byte[] magic = in.readNBytes(NPY_MAGIC.length);
            in.reset();
            if (Arrays.equals(magic, NPY_MAGIC)) {
                return new NpyReader(limits).read(name, in, length);
            }
            return new ArrowSourceReader(limits).read(name, in, length, ArrowSourceOptions.defaults());
        }
    }
}
