package dev.tensorbroadcast.localcluster;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The JVMs a cluster of processes started, stopped together: by {@link #stop}, when the start fails, or by a shutdown
 * hook if this JVM ends first. Both backends of processes on this machine hold one: {@link ProcessCluster} (Spark
 * standalone) and {@link YarnCluster}.
 */
final class ProcessGroup {
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);
    private static final Duration POLL = Duration.ofMillis(200);

    private final List<ChildProcess> processes = new CopyOnWriteArrayList<>();
    private final Thread hook;
    private final AtomicBoolean stopped = new AtomicBoolean();

    ProcessGroup() {
        hook = new Thread(() -> stopAll(List.copyOf(processes)), "local-cluster-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    ChildProcess add(ChildProcess process) {
        processes.add(requireNonNull(process, "process is null"));
        return process;
    }

    List<ChildProcess> processes() {
        return List.copyOf(processes);
    }

    List<Long> pids() {
        return processes.stream().map(ChildProcess::pid).toList();
    }

    /** Why the cluster is broken when one of its processes exited, naming that process's log. */
    Optional<String> exitedProcess() {
        return processes.stream()
                .filter(process -> !process.alive())
                .findFirst()
                .map(ChildProcess::exited);
    }

    /** Fails a start that cannot succeed any more since one of the processes exited. */
    void requireAlive() {
        exitedProcess().ifPresent(exited -> {
            throw new LocalClusterException("Cannot start the local cluster: " + exited);
        });
    }

    /**
     * Stops every process, the ones started last first (they depend on the ones before: workers on their master,
     * YARN's applications on HDFS), their children included; only once.
     */
    void stop() {
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or about to: it stops the same processes
        }
        stopAll(processes());
    }

    /**
     * What a failed start throws: stops what it started (a failure to stop is added to {@code failure}) and names
     * the work directory, which keeps the logs.
     */
    LocalClusterException failedStart(Path directory, Exception failure) {
        try {
            stop();
        } catch (RuntimeException stopFailure) {
            failure.addSuppressed(stopFailure);
        }
        if (failure instanceof LocalClusterException known) {
            return known;
        }
        return new LocalClusterException(
                "Cannot start the local cluster in " + directory + ": " + failure.getMessage(), failure);
    }

    private static void stopAll(List<ChildProcess> processes) {
        List<ProcessHandle> roots = new ArrayList<>();
        for (int i = processes.size() - 1; i >= 0; i--) {
            roots.add(processes.get(i).handle());
        }
        List<ProcessHandle> alive = ProcessTrees.stop(roots, STOP_GRACE);
        if (!alive.isEmpty()) {
            throw new LocalClusterException("Cannot stop the local cluster: processes "
                    + alive.stream().map(ProcessHandle::pid).toList() + " are still alive after SIGKILL");
        }
    }

    /**
     * A new work directory readable by its owner only: {@code requested}, or a new temporary directory when it is
     * null.
     */
    static Path createWorkDirectory(Path requested) {
        try {
            var ownerOnly = PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
            if (requested == null) {
                return Files.createTempDirectory("tensor-broadcast-cluster-", ownerOnly);
            }
            return Files.createDirectory(requested, ownerOnly);
        } catch (IOException e) {
            throw new LocalClusterException(
                    "Cannot create the local cluster's work directory"
                            + (requested == null ? "" : " '" + requested + "'") + ": " + e.getMessage(),
                    e);
        }
    }

    /** Waits a moment between two looks at a starting process. */
    static void pause() {
        try {
            Thread.sleep(POLL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LocalClusterException("Cannot start the local cluster: interrupted");
        }
    }
}
