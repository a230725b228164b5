package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.job.base.Progress;
import java.io.PrintWriter;
import java.util.function.LongSupplier;

/**
 * Progress where no terminal is (a CI log, spark-submit's driver log): a whole line at most every ten seconds, as
 * tasks finish, so a long job shows it is alive without flooding the log; jobs shorter than that print none.
 */
final class LineProgress implements Progress {
    private static final long EVERY_NANOS = 10_000_000_000L;

    private final PrintWriter err;
    private final LongSupplier clock;
    private long partitions;
    private long plannedBytes;
    private long start;
    private long lastLine;
    private String verb = "written";

    LineProgress(PrintWriter err) {
        this(err, System::nanoTime);
    }

    /** With a clock of nanoseconds, which tests set. */
    LineProgress(PrintWriter err, LongSupplier clock) {
        this.err = err;
        this.clock = clock;
    }

    @Override
    public synchronized void started(String description, long partitions, long bytes) {
        this.partitions = partitions;
        this.plannedBytes = bytes;
        this.start = clock.getAsLong();
        this.lastLine = start;
        this.verb = TerminalProgress.verbFor(description);
    }

    @Override
    public synchronized void advanced(long partitionsDone, long valueBytes) {
        long now = clock.getAsLong();
        if (now - lastLine < EVERY_NANOS || partitionsDone >= partitions) {
            return;
        }
        lastLine = now;
        err.println(TerminalProgress.line(partitionsDone, partitions, valueBytes, plannedBytes, now - start, verb));
        err.flush();
    }

    @Override
    public void finished() {}
}
