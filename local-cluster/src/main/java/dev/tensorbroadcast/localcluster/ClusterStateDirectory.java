package dev.tensorbroadcast.localcluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/**
 * Where the running local cluster is recorded: {@code $TENSOR_BROADCAST_STATE} (or the system property
 * {@value #PROPERTY}), else {@code ~/.tensor-broadcast/cluster}; a directory only its owner can read, since the
 * cluster's secret file lives in it.
 */
public final class ClusterStateDirectory {
    public static final String PROPERTY = "tensorbroadcast.state";
    public static final String ENVIRONMENT = "TENSOR_BROADCAST_STATE";
    private static final String STATE_FILE = "cluster.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path directory;

    private ClusterStateDirectory(Path directory) {
        this.directory = directory.toAbsolutePath().normalize();
    }

    public static ClusterStateDirectory locate() {
        String configured = System.getProperty(PROPERTY);
        if (configured == null || configured.isBlank()) {
            configured = System.getenv(ENVIRONMENT);
        }
        if (configured == null || configured.isBlank()) {
            return new ClusterStateDirectory(Path.of(System.getProperty("user.home"), ".tensor-broadcast", "cluster"));
        }
        return new ClusterStateDirectory(Path.of(configured));
    }

    public Path path() {
        return directory;
    }

    /** Creates the directory, readable by its owner only, if it does not exist. */
    public Path create() {
        try {
            if (!Files.isDirectory(directory)) {
                Files.createDirectories(directory.getParent());
                Files.createDirectory(
                        directory, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            return directory;
        } catch (IOException e) {
            throw new ClusterStateException("Cannot create the cluster state directory '" + directory + "': "
                    + reason(e) + "; set " + ENVIRONMENT + " to a directory you can write");
        }
    }

    /** The recorded cluster, if one is recorded (it may have died since). */
    public Optional<ClusterState> read() {
        Path file = directory.resolve(STATE_FILE);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(Files.readString(file, StandardCharsets.UTF_8), ClusterState.class));
        } catch (IOException e) {
            throw new ClusterStateException("Cannot read the local cluster's state '" + file + "': " + reason(e)
                    + "; stop the cluster with 'tensor-broadcast cluster stop' or delete the file");
        }
    }

    public void write(ClusterState state) {
        Path file = directory.resolve(STATE_FILE);
        Path partial = directory.resolve(STATE_FILE + ".partial");
        try {
            Files.writeString(partial, JSON.writeValueAsString(state), StandardCharsets.UTF_8);
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the cluster state as JSON", e);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the local cluster's state '" + file + "'", e);
        }
    }

    /** Forgets the recorded cluster, if it is still the one {@code owner} started. */
    public void clear(long owner) {
        Path file = directory.resolve(STATE_FILE);
        try {
            Optional<ClusterState> state = read();
            if (state.isPresent() && state.get().owner().pid() == owner) {
                Files.deleteIfExists(file);
            }
        } catch (IOException | RuntimeException e) {
            // a state left behind is recognized as stale by its dead pid
        }
    }

    /** The first line of the exception's message, or its type. */
    private static String reason(Exception e) {
        String message = e.getMessage();
        return message == null || message.isBlank()
                ? e.getClass().getSimpleName()
                : message.lines().findFirst().orElse(message);
    }
}
