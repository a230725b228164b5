package dev.tensorbroadcast.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.base.JobFailedException;
import dev.tensorbroadcast.job.base.TaskGroups;
import dev.tensorbroadcast.planner.Dialect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.util.TaskCompletionListener;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job on Spark that fails, or whose context is stopped (a signal), while its tasks are still running, deaf to
 * Spark's kill (as in a long read or write): the output is cleaned up only once they have stopped, so nothing they
 * write afterwards outlives the clean-up. A held task waits before it writes until its driver stopped it (and waits for
 * it), or until the failed job's clean-up is over: had the clean-up not waited, the task would then write into an
 * output already cleaned up (a kill stops it after its first batch, and its own abort removes its file, not the
 * directories it made), which these tests look for once every held task has ended.
 */
class FailedJobCleanupTest {
    private SparkSession spark;

    @TempDir
    Path dir;

    @BeforeEach
    void startSpark() {
        spark = LocalSpark.start();
    }

    @AfterEach
    void stopSpark() {
        spark.stop();
        InjectedFailure.hold = null;
    }

    /** Partition 0 fails in both its attempts, once partition 1 is held. */
    @Test
    void aTaskStillRunningWhenANewOutputsJobFailsLeavesNothing() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("s.npy"), new long[] {1, 64});
        Path output = dir.resolve("new");

        Throwable failure =
                failingWhileHeld(output, () -> request(source, output, false).run(spark));

        assertThat(failure)
                .isInstanceOf(JobFailedException.class)
                .hasMessageContaining("injected failure in partition 0, attempt 1");
        // the job made the directory and removed it: nothing where there was nothing
        assertThat(output).doesNotExist();
    }

    @Test
    void aTaskStillRunningWhenAnOverwriteFailsLeavesTheOldDatasetAsItWas() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("s.npy"), new long[] {1, 64});
        Path output = dir.resolve("old");
        Map<String, String> before = oldDataset(source, output);

        Throwable failure =
                failingWhileHeld(output, () -> request(source, output, true).run(spark));

        assertThat(failure)
                .isInstanceOf(JobFailedException.class)
                .hasMessageContaining("injected failure in partition 0, attempt 1");
        assertThat(tree(output)).isEqualTo(before);
    }

    /**
     * As a signal does: Spark's shutdown hook stops the context while both tasks run. A stopped local context kills
     * no task (its executor's threads run on), and hears no task end.
     */
    @Test
    void tasksStillRunningWhenTheContextStopsUnderAnOverwriteLeaveTheOldDatasetAsItWas() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("s.npy"), new long[] {1, 64});
        Path output = dir.resolve("stopped");
        Map<String, String> before = oldDataset(source, output);

        CountDownLatch holding = new CountDownLatch(2);
        CountDownLatch ended = new CountDownLatch(2);
        AtomicInteger resumed = new AtomicInteger();
        InjectedFailure.hold = partition -> {
            heldUntilStopped(output, holding, ended);
            resumed.incrementAndGet();
        };
        Thread stopper = new Thread(
                () -> {
                    try {
                        holding.await();
                        spark.stop();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "the signal's context stop");
        stopper.start();
        Throwable failure = catchThrowable(() -> request(source, output, true).run(spark));
        stopper.join();
        assertThat(ended.await(60, TimeUnit.SECONDS)).as("the held tasks ended").isTrue();

        assertThat(resumed).hasValue(2);
        assertThat(failure).isInstanceOf(JobFailedException.class).hasMessageContaining("SparkContext was shut down");
        assertThat(tree(output)).isEqualTo(before);
    }

    /**
     * Runs {@code job}, whose partition 0 fails in every attempt once partition 1 is held; returns its failure once
     * the held task has ended, whatever it did after it was let go.
     */
    private Throwable failingWhileHeld(Path output, ThrowingCallable job) throws Exception {
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch ended = new CountDownLatch(1);
        AtomicBoolean resumed = new AtomicBoolean();
        InjectedFailure.hold = partition -> {
            if (partition == 1) {
                heldUntilStopped(output, holding, ended);
                resumed.set(true);
            } else {
                try {
                    holding.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        spark.sparkContext().setLocalProperty(InjectedFailure.PARTITION, "0");
        spark.sparkContext().setLocalProperty(InjectedFailure.ATTEMPTS, "all");
        Throwable failure;
        try {
            failure = catchThrowable(job);
            assertThat(ended.await(60, TimeUnit.SECONDS))
                    .as("the held task ended")
                    .isTrue();
        } finally {
            spark.sparkContext().setLocalProperty(InjectedFailure.PARTITION, null);
            spark.sparkContext().setLocalProperty(InjectedFailure.ATTEMPTS, null);
        }
        assertThat(resumed).as("the held task was let go").isTrue();
        return failure;
    }

    /**
     * Holds the calling task, deaf to Spark's kill, until its driver stopped it or the failed job's clean-up is over
     * (within a minute); {@code holding} hears that it holds, {@code ended} that it ended.
     */
    private static void heldUntilStopped(Path output, CountDownLatch holding, CountDownLatch ended) {
        TaskContext.get().addTaskCompletionListener((TaskCompletionListener) context -> ended.countDown());
        holding.countDown();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!TaskGroups.stopping() && !cleanedUp(output)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the held task waited a minute in vain");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /**
     * Whether the failed job's clean-up is over: its {@code _temporary} gone, and the output with it (a new output)
     * or the old dataset back in place ({@code _SUCCESS} comes back last).
     */
    private static boolean cleanedUp(Path output) {
        return !Files.exists(output.resolve("_temporary"))
                && (!Files.exists(output) || Files.exists(output.resolve("_SUCCESS")));
    }

    /** The dataset an overwrite is to replace, written by a job that succeeds; its files and their contents. */
    private Map<String, String> oldDataset(Path source, Path output) throws Exception {
        request(source, output, false).run(spark);
        Map<String, String> written = tree(output);
        assertThat(written).containsKeys("_SUCCESS", "_manifest.json", "part-00000.arrow", "part-00001.arrow");
        return written;
    }

    private static TensorBroadcast request(Path source, Path output, boolean overwrite) {
        return TensorBroadcast.builder()
                .source(source.toString())
                .dialect(Dialect.NUMPY)
                .shape(8, 64)
                .partitions(2)
                .output(output.toString())
                .overwrite(overwrite)
                .build();
    }

    /** Every file (by its SHA-256) and directory (as "dir") under {@code root}, by relative path. */
    private static Map<String, String> tree(Path root) throws Exception {
        Map<String, String> entries = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.filter(path -> !path.equals(root)).toList()) {
                entries.put(
                        root.relativize(path).toString(),
                        Files.isDirectory(path)
                                ? "dir"
                                : HexFormat.of()
                                        .formatHex(MessageDigest.getInstance("SHA-256")
                                                .digest(Files.readAllBytes(path))));
            }
        }
        return entries;
    }
}
