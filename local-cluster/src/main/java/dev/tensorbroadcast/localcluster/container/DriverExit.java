package dev.tensorbroadcast.localcluster.container;

import static java.util.Objects.requireNonNull;

/** How a driver container ended: the exit code of its JVM and everything it printed. */
public record DriverExit(long exitCode, String stdout, String stderr) {
    public DriverExit {
        requireNonNull(stdout, "stdout is null");
        requireNonNull(stderr, "stderr is null");
    }
}
