package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.job.ByteSize;
import dev.tensorbroadcast.job.base.Progress;
import dev.tensorbroadcast.job.pipeline.DiscardJob;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * One line on a terminal, rewritten in place as tasks finish: partitions done, bytes of values, throughput and the
 * time left. Quiet for the first second, so short jobs print nothing but their result.
 */
final class TerminalProgress implements Progress {
    private static final long QUIET_NANOS = 1_000_000_000L;
    private static final long REDRAW_NANOS = 200_000_000L;

    private final PrintWriter err;
    private long partitions;
    private long plannedBytes;
    private long start;
    private long lastDraw;
    private boolean drawn;
    private String verb = "written";

    TerminalProgress(PrintWriter err) {
        this.err = err;
    }

    @Override
    public synchronized void started(String description, long partitions, long bytes) {
        this.partitions = partitions;
        this.plannedBytes = bytes;
        this.start = System.nanoTime();
        this.lastDraw = start;
        this.drawn = false;
        this.verb = verbFor(description);
    }

    /** What the job does with its bytes: the null sink computes them, verify checks them, the others write them. */
    static String verbFor(String description) {
        if (description.equals(dev.tensorbroadcast.job.dataset.DatasetVerifier.VERIFY_DESCRIPTION)) {
            return "checked";
        }
        return description.endsWith("(" + DiscardJob.FORMAT_NAME + ")") ? "computed" : "written";
    }

    @Override
    public synchronized void advanced(long partitionsDone, long valueBytes) {
        long now = System.nanoTime();
        if (now - start < QUIET_NANOS || (now - lastDraw < REDRAW_NANOS && partitionsDone < partitions)) {
            return;
        }
        lastDraw = now;
        drawn = true;
        err.print("\r"
                + line(Math.min(partitionsDone, partitions), partitions, valueBytes, plannedBytes, now - start, verb)
                + "\u001b[K");
        err.flush();
    }

    @Override
    public synchronized void finished() {
        if (drawn) {
            err.println();
            err.flush();
        }
        drawn = false;
    }

    /**
     * The progress of a job as one line; {@link LineProgress} prints the same line where no terminal is. It counts
     * bytes of values, as planned and as the result line's rate does: a compressed file's bytes on disk say nothing
     * of how far the job is. {@code valueBytes} includes running tasks' finished batches; the finished partitions'
     * share is the floor (they hold equal shares of the values), the plan the ceiling.
     */
    static String line(long done, long partitions, long valueBytes, long plannedBytes, long elapsedNanos, String verb) {
        double seconds = elapsedNanos / 1e9;
        long finished = partitions == 0 ? 0 : (long) ((double) plannedBytes * done / partitions);
        long values = Math.min(plannedBytes, Math.max(valueBytes, finished));
        long rate = seconds > 0 ? (long) (values / seconds) : 0;
        String eta = values == 0 ? "?" : Math.round(seconds * (plannedBytes - values) / values) + " s";
        // verify checks a dataset file by file (one per partition it was written in)
        String unit = verb.equals("checked") ? "files" : "partitions";
        return String.format(
                Locale.ROOT,
                "%s %d/%d, %s of %s of values %s, %s/s, %s left",
                unit,
                done,
                partitions,
                ByteSize.format(values),
                ByteSize.format(plannedBytes),
                verb,
                ByteSize.format(rate),
                eta);
    }
}
