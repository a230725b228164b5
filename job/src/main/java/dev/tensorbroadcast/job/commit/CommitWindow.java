package dev.tensorbroadcast.job.commit;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.util.ShutdownHookManager;

/**
 * A job's commit in the driver, from the moment it first changes the output to its {@code _SUCCESS}: a JVM that
 * begins to shut down meanwhile (Ctrl-C, SIGTERM) lets it finish before Spark stops and Hadoop closes the file
 * systems the commit writes through, for up to {@link #WAIT} (a commit is seconds). A signal that comes before a
 * commit starts keeps it from starting ({@link #enter} refuses): the job fails as one stopped before its commit, and
 * the old dataset stays. Without this a signal in the commit of an overwrite on S3 stopped it between taking the old
 * dataset's markers away and writing the new one's, and neither dataset read as one.
 *
 * <p>The wait is a hook of Hadoop's shutdown hook manager, which runs its hooks one after another by priority: this
 * one before Spark's (which stops the context) and the file systems' (which closes them).
 */
public final class CommitWindow implements AutoCloseable {
    /** How long a shutdown waits for a commit in progress; within the 30 s the command's own hook holds the JVM. */
    static final Duration WAIT = Duration.ofSeconds(25);
    /** Before Spark's hook (file systems' priority + 30) and the file systems' own. */
    private static final int PRIORITY = FileSystem.SHUTDOWN_HOOK_PRIORITY + 50;

    private static final Object LOCK = new Object();
    private static int open;
    private static boolean shuttingDown;
    private static boolean installed;

    private boolean closed;

    private CommitWindow() {}

    /**
     * Opens a commit's window; close it once the commit is done or failed. Refused with a
     * {@link CancellationException} once the JVM shuts down: a commit must not begin then.
     */
    public static CommitWindow enter() {
        synchronized (LOCK) {
            install();
            if (shuttingDown) {
                throw new CancellationException("the JVM is shutting down (a signal): the commit did not start");
            }
            open++;
        }
        return new CommitWindow();
    }

    @Override
    public void close() {
        synchronized (LOCK) {
            if (closed) {
                return;
            }
            closed = true;
            open--;
            LOCK.notifyAll();
        }
    }

    /** Waits until the JVM begins to shut down, or {@code millis} passed; for a test's pause at a fault point. */
    static void awaitShutdown(long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        synchronized (LOCK) {
            install();
            while (!shuttingDown) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                try {
                    // rounded up: a pause is never shorter than asked
                    LOCK.wait(TimeUnit.NANOSECONDS.toMillis(left) + 1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private static void install() {
        if (installed) {
            return;
        }
        installed = true;
        try {
            ShutdownHookManager.get()
                    .addShutdownHook(CommitWindow::holdShutdown, PRIORITY, WAIT.toSeconds() + 5, TimeUnit.SECONDS);
        } catch (IllegalStateException shutdownInProgress) {
            shuttingDown = true;
        }
    }

    /** The shutdown hook: no commit begins from now on, and one in progress is waited for. */
    private static void holdShutdown() {
        long deadline = System.nanoTime() + WAIT.toNanos();
        synchronized (LOCK) {
            shuttingDown = true;
            LOCK.notifyAll();
            while (open > 0) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    return;
                }
                try {
                    LOCK.wait(left);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }
}
