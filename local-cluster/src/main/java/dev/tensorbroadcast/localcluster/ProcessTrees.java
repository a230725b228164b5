package dev.tensorbroadcast.localcluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Stops processes and their descendants, each by its own pid: first politely (SIGTERM, so a worker stops its
 * executors and HDFS shuts down), then forcibly whatever is still alive after the grace period.
 */
final class ProcessTrees {
    private static final Duration FORCED_WAIT = Duration.ofSeconds(10);

    private ProcessTrees() {}

    /** Stops {@code roots} and every descendant they have now; returns the processes still alive after all. */
    static List<ProcessHandle> stop(List<ProcessHandle> roots, Duration grace) {
        // the descendants are listed before anything stops: once a parent is gone, its children are reparented
        Set<ProcessHandle> all = new LinkedHashSet<>();
        for (ProcessHandle root : roots) {
            root.descendants().forEach(all::add);
            all.add(root);
        }
        all.forEach(ProcessHandle::destroy);
        awaitExit(all, grace);
        all.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        awaitExit(all, FORCED_WAIT);
        List<ProcessHandle> alive = new ArrayList<>();
        all.stream().filter(ProcessHandle::isAlive).forEach(alive::add);
        return alive;
    }

    private static void awaitExit(Set<ProcessHandle> processes, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (ProcessHandle process : processes) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            try {
                process.onExit().get(left, TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                return;
            } catch (java.util.concurrent.ExecutionException e) {
                // onExit does not fail; a process that cannot be waited for is checked for liveness afterwards
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
