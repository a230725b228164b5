package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LineProgressTest {
    private static final long SECOND = 1_000_000_000L;

    /** A progress on a clock the test moves, and what it printed. */
    private record Clocked(StringWriter text, AtomicLong now, LineProgress progress) {
        static Clocked started(long startNanos, String description, long partitions, long bytes) {
            StringWriter text = new StringWriter();
            AtomicLong now = new AtomicLong(startNanos);
            LineProgress progress = new LineProgress(new PrintWriter(text), now::get);
            progress.started(description, partitions, bytes);
            return new Clocked(text, now, progress);
        }

        /** Moves the clock by {@code seconds}, then reports. */
        void advance(long seconds, long partitionsDone, long valueBytes) {
            now.addAndGet(seconds * SECOND);
            progress.advanced(partitionsDone, valueBytes);
        }

        String printed() {
            return text.toString();
        }
    }

    /** A compressed job writes few bytes; the line counts the values the finished partitions hold. */
    @Test
    void countsValuesNotTheBytesOfCompressedFiles() {
        Clocked run = Clocked.started(0, "job", 32, 1L << 30);
        run.advance(11, 8, 10L << 20);
        assertThat(run.printed())
                .isEqualTo("partitions 8/32, 256.0 MiB of 1.0 GiB of values written, 23.3 MiB/s," + " 33 s left\n");
    }

    /** Running tasks report their written batches: the line moves before any partition ends. */
    @Test
    void countsTheBatchesOfRunningPartitions() {
        Clocked run = Clocked.started(0, "job", 1, 1L << 30);
        run.advance(12, 0, 300L << 20);
        assertThat(run.printed())
                .isEqualTo("partitions 0/1, 300.0 MiB of 1.0 GiB of values written, 25.0 MiB/s," + " 29 s left\n");
    }

    @Test
    void printsALineAtMostEveryTenSecondsAndNoneForAShortJob() {
        Clocked run = Clocked.started(100 * SECOND, "job", 16, 16L << 20);
        run.advance(3, 1, 1L << 20);
        assertThat(run.printed()).isEmpty();

        run.advance(8, 4, 4L << 20);
        run.advance(1, 5, 5L << 20);
        assertThat(run.printed())
                .isEqualTo("partitions 4/16, 4.0 MiB of 16.0 MiB of values written, 372.4 KiB/s," + " 33 s left\n");

        // the last task ends the job: the result line follows, no progress line
        run.advance(20, 16, 16L << 20);
        assertThat(run.printed().lines()).hasSize(1);
    }

    @Test
    void theNullSinkComputesWhatTheWritersWrite() {
        Clocked run = Clocked.started(0, "tensor-broadcast numpy: [1,8] to [64,8] int32 (null)", 16, 16L << 20);
        run.advance(11, 4, 4L << 20);
        assertThat(run.printed()).startsWith("partitions 4/16, 4.0 MiB of 16.0 MiB of values computed, ");
    }
}
