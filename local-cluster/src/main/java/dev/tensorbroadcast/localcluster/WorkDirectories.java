package dev.tensorbroadcast.localcluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removes a stopped cluster's work directory. */
public final class WorkDirectories {
    private WorkDirectories() {}

    /** Deletes {@code directory} and everything under it; nothing if it does not exist. */
    public static void delete(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException | UncheckedIOException e) {
            throw new LocalClusterException(
                    "Cannot delete the local cluster's work directory '" + directory + "': " + e.getMessage(), e);
        }
    }
}
