package dev.tensorbroadcast.job.spark;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.source.ArrowSourceOptions;
import dev.tensorbroadcast.arrowio.source.ArrowSourceReader;
import dev.tensorbroadcast.arrowio.source.NpyReader;
import dev.tensorbroadcast.arrowio.source.SourceLimits;
import dev.tensorbroadcast.job.Reasons;
import java.io.BufferedInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;

/**
 * Reads a source tensor from any Hadoop file system on the driver. The format is told by the first bytes, never by
 * the name: {@code \x93NUMPY} is a {@code .npy} file, anything else is read as Arrow IPC (file or stream), whose
 * reader names what it expected when the bytes are neither.
 */
public final class SourceLoader {
    private static final int MAGIC_LENGTH = NpyReader.magic().length;

    private final Configuration conf;
    private final SourceLimits limits;
    private final ArrowSourceOptions arrowOptions;

    public SourceLoader(Configuration conf, SourceLimits limits, ArrowSourceOptions arrowOptions) {
        this.conf = requireNonNull(conf, "conf is null");
        this.limits = requireNonNull(limits, "limits is null");
        this.arrowOptions = requireNonNull(arrowOptions, "arrowOptions is null");
    }

    /** A loader with the default heap limit that picks the Arrow column by itself. */
    public static SourceLoader defaults(Configuration conf) {
        return new SourceLoader(conf, SourceLimits.defaults(), ArrowSourceOptions.defaults());
    }

    public SourceTensor read(String location) {
        Locations.Located input = Locations.locate("input", location, conf);
        FileStatus status;
        try {
            status = input.fileSystem().getFileStatus(input.path());
        } catch (FileNotFoundException e) {
            throw new InputException("Cannot read input '" + location + "': no such file; give a .npy or Arrow IPC"
                    + " file");
        } catch (IOException e) {
            throw new InputException("Cannot read input '" + location + "': " + Reasons.of(e));
        }
        if (status.isDirectory()) {
            throw new InputException("Cannot read input '" + location + "': it is a directory; give a .npy or Arrow"
                    + " IPC file");
        }
        try (InputStream raw = input.fileSystem().open(input.path());
                BufferedInputStream in = new BufferedInputStream(raw, 1 << 16)) {
            in.mark(MAGIC_LENGTH);
            byte[] head = in.readNBytes(MAGIC_LENGTH);
            in.reset();
            if (NpyReader.isNpy(head)) {
                return new NpyReader(limits).read(location, in, status.getLen());
            }
            return new ArrowSourceReader(limits).read(location, in, status.getLen(), arrowOptions);
        } catch (IOException e) {
            throw new InputException("Cannot read input '" + location + "': " + Reasons.of(e));
        }
    }

}
