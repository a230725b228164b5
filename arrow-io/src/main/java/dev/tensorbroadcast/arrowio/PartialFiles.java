package dev.tensorbroadcast.arrowio;

import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Files a failed write must not leave behind: Arrow's and Parquet's writers write their footer while closing, even
 * after a failure, so what remains would look like a whole file with fewer rows.
 */
public final class PartialFiles {
    private PartialFiles() {}

    /** Deletes the file at {@code path} after {@code failure}; a failure to delete is added to it, not thrown. */
    public static void delete(FileSystem fileSystem, Path path, Throwable failure) {
        try {
            if (!fileSystem.delete(path, false) && fileSystem.exists(path)) {
                failure.addSuppressed(new IOException("Cannot delete the partial file " + path));
            }
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }
}
