package dev.tensorbroadcast.job.base;

import dev.tensorbroadcast.planner.BroadcastException;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Turns a location as a user types it into a fully qualified Hadoop path: a URI ({@code hdfs://…}, {@code file:/…},
 * or any scheme whose Hadoop connector is on the class path) as it is, a plain path on the default file system (the local one unless configured otherwise),
 * relative to the working directory.
 */
public final class Locations {
    /** The role of a location written to: refusals are {@link OutputException}s. */
    public static final String OUTPUT = "output";

    private Locations() {}

    /**
     * The file system and qualified path of {@code location}; {@code role} ("input", "output", "dataset") names it
     * in messages. A location that is empty, not a path, or on no known file system is refused: with an
     * {@link OutputException} for the {@link #OUTPUT} role, else an {@link InputException}.
     */
    public static Located locate(String role, String location, Configuration conf) {
        if (location == null || location.isBlank()) {
            throw refused(role, "Cannot use an empty " + role + " location: give a local path or a URI such as"
                    + " hdfs://namenode/data/x");
        }
        Path path;
        try {
            path = new Path(location);
        } catch (IllegalArgumentException e) {
            throw refused(role, "Cannot use " + role + " '" + location + "': it is not a valid path or URI ("
                    + e.getMessage() + ")");
        }
        try {
            // the first s3a:// file system of the JVM is made here, and keeps the settings it is made with
            FileSystem fileSystem = path.getFileSystem(S3aDefaults.forPath(conf, path));
            return new Located(location, fileSystem, fileSystem.makeQualified(path));
        } catch (IOException | RuntimeException e) {
            throw refused(role, "Cannot use " + role + " '" + location + "': no file system for it ("
                    + Reasons.of(e) + "); use a local path or a URI"
                    + " with a scheme this build serves: file, hdfs or s3a");
        }
    }

    private static BroadcastException refused(String role, String message) {
        return OUTPUT.equals(role) ? new OutputException(message) : new InputException(message);
    }

    /** A location as typed, with the file system that holds it and its qualified path. */
    public record Located(String text, FileSystem fileSystem, Path path) {}
}
