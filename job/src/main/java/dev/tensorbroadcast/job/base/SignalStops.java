package dev.tensorbroadcast.job.base;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The running jobs' tasks, stopped before a signal shuts the JVM down. The JVM's shutdown stops Spark's context, which
 * takes a cluster's executors down without waiting for their tasks: a task that was writing went on until its executor
 * died, after the driver had aborted the job and deleted its attempts, and left its attempt file behind. So the
 * signal's handler first cancels each running job's tasks and waits for them to end, while the context still hears
 * them; only then does the shutdown begin.
 */
public final class SignalStops {
    /** A running job's way to stop its tasks and wait for them until a deadline of {@link System#nanoTime}. */
    @FunctionalInterface
    public interface Stop {
        void stopAndAwait(long deadline);
    }

    /** A job's place among the running ones, left when the job ends. */
    public static final class Registration implements AutoCloseable {
        private final Stop stop;

        private Registration(Stop stop) {
            this.stop = stop;
        }

        @Override
        public void close() {
            RUNNING.remove(stop);
        }
    }

    private static final List<Stop> RUNNING = new CopyOnWriteArrayList<>();

    private SignalStops() {}

    /** {@code stop} is called if a signal comes before the registration is closed. */
    public static Registration register(Stop stop) {
        requireNonNull(stop, "stop is null");
        RUNNING.add(stop);
        return new Registration(stop);
    }

    /** Stops every running job's tasks and waits for them, {@code wait} at most in all; never throws. */
    public static void stopAll(Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        for (Stop stop : RUNNING) {
            try {
                stop.stopAndAwait(deadline);
            } catch (RuntimeException e) {
                // a context stopping meanwhile: the shutdown that follows ends what is left
            }
        }
    }
}
