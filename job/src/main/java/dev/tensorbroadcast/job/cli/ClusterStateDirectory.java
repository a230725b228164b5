package dev.tensorbroadcast.job.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.tensorbroadcast.job.Reasons;
import dev.tensorbroadcast.planner.InvalidRequestException;
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
final class ClusterStateDirectory {
    static final String PROPERTY = "tensorbroadcast.state";
    static final String ENVIRONMENT = "TENSOR_BROADCAST_STATE";
    private static final String STATE_FILE = "cluster.json";

    private final Path directory;

    private ClusterStateDirectory(Path directory) {
        this.directory = directory.toAbsolutePath().normalize();
    }

    static ClusterStateDirectory locate() {
        String configured = System.getProperty(PROPERTY);
        if (configured == null || configured.isBlank()) {
            configured = System.getenv(ENVIRONMENT);
        }
        if (configured == null || configured.isBlank()) {
            return new ClusterStateDirectory(Path.of(System.getProperty("user.home"), ".tensor-broadcast", "cluster"));
        }
        return new ClusterStateDirectory(Path.of(configured));
    }

    Path path() {
        return directory;
    }

    /** Creates the directory, readable by its owner only, if it does not exist. */
    Path create() {
        try {
            if (!Files.isDirectory(directory)) {
                Files.createDirectories(directory.getParent());
                Files.createDirectory(directory,
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            return directory;
        } catch (IOException e) {
            throw new InvalidRequestException("Cannot create the cluster state directory '" + directory + "': "
                    + Reasons.of(e) + "; set " + ENVIRONMENT + " to a directory you can write");
        }
    }

    /** The recorded cluster, if one is recorded (it may have died since). */
    Optional<ClusterState> read() {
        Path file = directory.resolve(STATE_FILE);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Json.MAPPER.readValue(Files.readString(file, StandardCharsets.UTF_8),
                    ClusterState.class));
        } catch (IOException e) {
            throw new InvalidRequestException("Cannot read the local cluster's state '" + file + "': "
                    + Reasons.of(e) + "; stop the cluster with 'tensor-broadcast cluster stop' or delete the file");
        }
    }

    void write(ClusterState state) {
        Path file = directory.resolve(STATE_FILE);
        Path partial = directory.resolve(STATE_FILE + ".partial");
        try {
            Files.writeString(partial, Json.MAPPER.writeValueAsString(state), StandardCharsets.UTF_8);
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the cluster state as JSON", e);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the local cluster's state '" + file + "'", e);
        }
    }

    /** Forgets the recorded cluster, if it is still the one {@code owner} started. */
    void clear(long owner) {
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
}
