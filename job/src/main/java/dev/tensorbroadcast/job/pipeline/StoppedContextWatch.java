package dev.tensorbroadcast.job.pipeline;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Ends a job's wait that Spark never ends: when YARN kills the application under a client-mode driver, Spark stops the
 * context from its monitor thread, and that stop can fail halfway (a rejected task in the backend's stop), leaving the
 * job's thread waiting for a result that never comes. Once the context is stopped and the job has still not returned
 * after a grace period, its thread is interrupted, so the job fails and says why.
 */
final class StoppedContextWatch implements AutoCloseable {
    private static final Duration POLL = Duration.ofMillis(500);
    /** A stopped context fails its jobs at once when its stop goes through: this is for when it does not. */
    private static final Duration GRACE = Duration.ofSeconds(15);

    private final Thread watcher;
    private volatile boolean done;
    private volatile boolean interrupted;

    private StoppedContextWatch(BooleanSupplier stopped, Thread job, Duration grace) {
        watcher = new Thread(() -> watch(stopped, job, grace), "tensor-broadcast-stopped-context-watch");
        watcher.setDaemon(true);
    }

    /** Watches {@code job}'s thread while it waits for a job of the context that {@code stopped} tells of. */
    static StoppedContextWatch start(BooleanSupplier stopped, Thread job) {
        return start(stopped, job, GRACE);
    }

    static StoppedContextWatch start(BooleanSupplier stopped, Thread job, Duration grace) {
        StoppedContextWatch watch = new StoppedContextWatch(stopped, job, grace);
        watch.watcher.start();
        return watch;
    }

    private void watch(BooleanSupplier stopped, Thread job, Duration grace) {
        try {
            while (!done && !stopped.getAsBoolean()) {
                Thread.sleep(POLL.toMillis());
            }
            long deadline = System.nanoTime() + grace.toNanos();
            while (!done && System.nanoTime() < deadline) {
                Thread.sleep(Math.min(POLL.toMillis(), Math.max(1, grace.toMillis())));
            }
            synchronized (this) {
                if (!done) {
                    interrupted = true;
                    job.interrupt();
                }
            }
        } catch (InterruptedException e) {
            // closed: the job returned
        }
    }

    /**
     * The job returned: the watch ends, and an interruption it made is not left on the job's thread. Once only: a
     * second call leaves the thread's interruption as it is.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (done) {
                return;
            }
            done = true;
        }
        watcher.interrupt();
        if (interrupted) {
            Thread.interrupted();
        }
    }
}
