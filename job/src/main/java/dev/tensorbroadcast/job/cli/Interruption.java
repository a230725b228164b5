package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.job.base.SignalStops;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.config.Configurator;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C and SIGTERM: the running jobs' tasks are cancelled and waited for ({@link SignalStops}), then the JVM runs
 * its shutdown hooks, Spark's stops the session, and the running job fails in the main thread with whatever Spark
 * throws while it goes away. This hook marks the run as interrupted, so the failure is
 * reported as one line saying so, and holds the JVM until that line is printed and the job has cleaned up (aborted
 * its commit, released the output's lock). The exit code stays the signal's (130, 143).
 */
final class Interruption {
    /** How long the hook waits for the main thread to report; the JVM halts after it in any case. */
    private static final long REPORT_SECONDS = 30;
    /**
     * How long the handler waits for the running jobs' tasks to stop before the shutdown begins: as long as a failed
     * job's driver waits for them before it aborts the job.
     */
    private static final Duration TASKS_STOP = Duration.ofSeconds(20);
    /**
     * A test's stand-in for a handler thread that a loaded machine runs late: milliseconds between seeing the signal
     * and the handler's {@code System.exit}, in which the main thread may finish its report first.
     */
    static final String EXIT_DELAY = "tensorbroadcast.test.signalExitDelayMillis";

    private static volatile boolean signalled;
    /** The code the JVM ends with: 128 plus the number of the signal this class handled. */
    private static volatile int exitCode = ExitCode.INTERRUPTED;

    private static volatile boolean finished;
    private static final CountDownLatch REPORTED = new CountDownLatch(1);

    private Interruption() {}

    static void install() {
        quietBeforeShutdown("INT");
        quietBeforeShutdown("TERM");
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            if (finished) {
                                return;
                            }
                            signalled = true;
                            quietSpark();
                            try {
                                REPORTED.await(REPORT_SECONDS, TimeUnit.SECONDS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        },
                        "tensor-broadcast-interruption"));
    }

    /**
     * Handles the signal as the JVM does (exit with 128 plus its number, which runs the shutdown hooks), but quiets
     * Spark first: shutdown hooks run all at once, and Spark's, stopping its executor under running tasks, would log
     * rejected tasks before this class's hook got to quiet them. A signal the process was started ignoring (a
     * background job without job control) stays ignored.
     */
    private static void quietBeforeShutdown(String name) {
        try {
            Signal signal = new Signal(name);
            SignalHandler previous = Signal.handle(signal, received -> {
                exitCode = 128 + received.getNumber();
                signalled = true;
                quietSpark();
                // a cluster's tasks end while the context still hears them: the shutdown would take their executors
                // down under them, after the job's abort, and a task writing then left its attempt behind
                SignalStops.stopAll(TASKS_STOP);
                delayForTest();
                System.exit(128 + received.getNumber());
            });
            if (previous == SignalHandler.SIG_IGN) {
                Signal.handle(signal, SignalHandler.SIG_IGN);
            }
        } catch (IllegalArgumentException e) {
            // a signal this JVM does not let us handle keeps the JVM's own handling
        }
    }

    private static void delayForTest() {
        long millis = Long.getLong(EXIT_DELAY, 0);
        if (millis > 0) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Spark's threads, stopped under running tasks, print rejected futures and log errors on their way out. Our own
     * line goes to the stream the command captured at its start, so it still prints; theirs no longer do.
     */
    private static void quietSpark() {
        System.setErr(new PrintStream(OutputStream.nullOutputStream(), true));
        if (QuietLogProvider.class.getName().equals(System.getProperty(LoggingChoice.PROVIDER))) {
            // a run without Spark logs through our provider, which writes to System.err: silenced above, and log4j
            // is not started only to be turned off
            return;
        }
        try {
            // every logger, not the root alone: the command line's configuration sets org.apache.spark's own level
            Configurator.setAllLevels(LogManager.ROOT_LOGGER_NAME, Level.OFF);
        } catch (RuntimeException | LinkageError e) {
            // without log4j there is nothing to quiet
        }
    }

    /**
     * Stops a command whose signal came before its job started: Spark's own shutdown hook, which fails a running
     * job, may not have been there yet, and the job would otherwise run to its end in a JVM that is shutting down.
     */
    static void stopIfSignalled() {
        if (signalled) {
            throw new CancellationException("interrupted before the job started");
        }
    }

    /** Whether a signal stopped the JVM while a command ran. */
    static boolean signalled() {
        return signalled;
    }

    /** The code a signalled JVM ends with (130 for SIGINT, 143 for SIGTERM). */
    static int exitCode() {
        return exitCode;
    }

    /** The command has returned and said what it had to: the hook may let the JVM go. */
    static void finished() {
        finished = true;
        REPORTED.countDown();
    }
}
