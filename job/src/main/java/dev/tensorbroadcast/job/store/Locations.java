package dev.tensorbroadcast.job.store;

import dev.tensorbroadcast.job.base.InputException;
import dev.tensorbroadcast.job.base.OutputException;
import dev.tensorbroadcast.job.base.Reasons;
import dev.tensorbroadcast.planner.BroadcastException;
import java.io.IOException;
import java.util.Optional;
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
            throw refused(
                    role,
                    "Cannot use an empty " + role + " location: give a local path or a URI such as"
                            + " hdfs://namenode/data/x");
        }
        Path path;
        try {
            path = new Path(location);
        } catch (IllegalArgumentException e) {
            throw refused(
                    role,
                    "Cannot use " + role + " '" + location + "': it is not a valid path or URI (" + e.getMessage()
                            + ")");
        }
        try {
            // the first file system of a store in the JVM is made here (S3A's, one per bucket, keeps the settings it
            // is made with): with the store's settings
            FileSystem fileSystem = path.getFileSystem(Stores.forPath(path).settings(conf));
            return new Located(location, fileSystem, fileSystem.makeQualified(path));
        } catch (IOException | RuntimeException e) {
            throw refused(
                    role,
                    "Cannot use " + role + " '" + location + "': no file system for it ("
                            + Reasons.of(e) + "); use a local path or a URI"
                            + " with a scheme this build serves: file, hdfs or s3a");
        }
    }

    /**
     * The local path {@code location} names on this machine's disk, as typed ({@code file:} dropped), whatever the
     * default file system; empty for a URI of any other scheme ({@code hdfs://}, {@code s3a://}).
     */
    public static Optional<String> onThisDisk(String location) {
        String local = location.startsWith("file:") ? location.substring("file:".length()) : location;
        return local.matches("^[A-Za-z][A-Za-z0-9+.-]*://.*") ? Optional.empty() : Optional.of(local);
    }

    private static BroadcastException refused(String role, String message) {
        return OUTPUT.equals(role) ? new OutputException(message) : new InputException(message);
    }

    /** A location as typed, with the file system that holds it and its qualified path. */
    public record Located(String text, FileSystem fileSystem, Path path) {}
}
