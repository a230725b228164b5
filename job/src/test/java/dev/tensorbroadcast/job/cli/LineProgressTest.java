package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LineProgressTest {
    /** A compressed job writes few bytes; the line counts the values the finished partitions hold. */
    @Test
    void countsValuesNotTheBytesOfCompressedFiles() {
        StringWriter text = new StringWriter();
        AtomicLong now = new AtomicLong(0);
        LineProgress progress = new LineProgress(new PrintWriter(text), now::get);
        progress.started("job", 32, 1L << 30);

        now.addAndGet(11 * SECOND);
        progress.advanced(8, 10L << 20);

        assertThat(text.toString()).isEqualTo("partitions 8/32, 256.0 MiB of 1.0 GiB of values written, 23.3 MiB/s,"
                + " 33 s left\n");
    }

    private static final long SECOND = 1_000_000_000L;

    /** Running tasks report their written batches: the line moves before any partition ends. */
    @Test
    void countsTheBatchesOfRunningPartitions() {
        StringWriter text = new StringWriter();
        AtomicLong now = new AtomicLong(0);
        LineProgress progress = new LineProgress(new PrintWriter(text), now::get);
        progress.started("job", 1, 1L << 30);

        now.addAndGet(12 * SECOND);
        progress.advanced(0, 300L << 20);

        assertThat(text.toString()).isEqualTo("partitions 0/1, 300.0 MiB of 1.0 GiB of values written, 25.0 MiB/s,"
                + " 29 s left\n");
    }

    @Test
    void printsALineAtMostEveryTenSecondsAndNoneForAShortJob() {
        StringWriter text = new StringWriter();
        AtomicLong now = new AtomicLong(100 * SECOND);
        LineProgress progress = new LineProgress(new PrintWriter(text), now::get);
        progress.started("job", 16, 16L << 20);

        now.addAndGet(3 * SECOND);
        progress.advanced(1, 1L << 20);
        assertThat(text.toString()).isEmpty();

        now.addAndGet(8 * SECOND);
        progress.advanced(4, 4L << 20);
        now.addAndGet(SECOND);
        progress.advanced(5, 5L << 20);
        assertThat(text.toString()).isEqualTo("partitions 4/16, 4.0 MiB of 16.0 MiB of values written, 372.4 KiB/s,"
                + " 33 s left\n");

        // the last task ends the job: the result line follows, no progress line
        now.addAndGet(20 * SECOND);
        progress.advanced(16, 16L << 20);
        assertThat(text.toString().lines()).hasSize(1);
    }

    @Test
    void theNullSinkComputesWhatTheWritersWrite() {
        StringWriter text = new StringWriter();
        AtomicLong now = new AtomicLong(0);
        LineProgress progress = new LineProgress(new PrintWriter(text), now::get);
        progress.started("tensor-broadcast numpy: [1,8] to [64,8] int32 (null)", 16, 16L << 20);

        now.addAndGet(11 * SECOND);
        progress.advanced(4, 4L << 20);

        assertThat(text.toString()).startsWith("partitions 4/16, 4.0 MiB of 16.0 MiB of values computed, ");
    }
}
