package dev.tensorbroadcast.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.tensorbroadcast.job.base.JobFailedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a job holds is released when it ends, unless its context stopped under it and took it along; a failed job is
 * undone after its tasks stopped, or once the wait for them gave up, which its failure then says.
 */
class JobRunTest {
    private SparkSession spark;

    @BeforeEach
    void start() {
        spark = LocalSpark.start();
    }

    @AfterEach
    void stop() {
        spark.stop();
    }

    /** Released by the test once the job's run has returned: a task held past the wait, deaf to its kill. */
    private static final CountDownLatch RELEASED = new CountDownLatch(1);

    private static final CountDownLatch HOLDING = new CountDownLatch(1);

    @Test
    void aTaskThatOutlastsTheWaitIsSaidToStillRunWhenTheJobIsUndone() throws Exception {
        List<String> undone = new ArrayList<>();
        Throwable failure = catchThrowable(() -> JobRun.untracked(JobEngine.spark(spark), "outlasting")
                .stopWait(Duration.ofSeconds(1))
                .onFailure(
                        () -> undone.add("undone while the task was " + (RELEASED.getCount() == 1 ? "held" : "let go")))
                .run(
                        "Cannot write 'x'",
                        run -> run.tasks(2, (Integer index, Iterator<Integer> ignored) -> {
                            if (index == 1) {
                                HOLDING.countDown();
                                RELEASED.await();
                                return List.of("late").iterator();
                            }
                            HOLDING.await();
                            throw new IllegalStateException("partition 0 fails");
                        })));
        RELEASED.countDown();

        assertThat(undone).containsExactly("undone while the task was held");
        assertThat(failure)
                .isInstanceOf(JobFailedException.class)
                .hasMessageStartingWith("Cannot write 'x': the Spark job failed: ")
                .hasMessageContaining("partition 0 fails");
        assertThat(failure.getSuppressed())
                .extracting(Throwable::getMessage)
                .containsExactly("Cannot wait for the"
                        + " job's tasks to stop: 1 still running after 1 s; the failed job was undone while they ran, and what"
                        + " they write after it may be left behind");
    }

    /**
     * On a session of the caller's own (the Java API), a failed job leaves no Spark warning of its making in the
     * caller's log: its own job has ended with the failure, and cancelling the group of a job that ended warned
     * "Cannot find active jobs" on most failures. Spark's scheduler logs from its event loop, in order: once it has
     * warned of a group cancelled after ours, it would have warned of ours.
     */
    @Test
    void aFailedJobLeavesNoSchedulerWarningInTheCallersLog() throws Exception {
        String marker = "a group with no job, cancelled after the failed one";
        List<String> warned;
        try (LoggedWarnings warnings = LoggedWarnings.of("org.apache.spark.scheduler.DAGScheduler")) {
            Throwable failure = catchThrowable(() -> JobRun.untracked(JobEngine.spark(spark), "failing")
                    .run(
                            "Cannot write 'x'",
                            run -> run.tasks(2, (Integer index, Iterator<Integer> ignored) -> {
                                throw new IllegalStateException("partition " + index + " fails");
                            })));
            assertThat(failure).isInstanceOf(JobFailedException.class).hasMessageContaining("fails");
            spark.sparkContext().cancelJobGroup(marker);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (warnings.lines().stream().noneMatch(line -> line.contains(marker)) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            warned = warnings.lines();
        }
        assertThat(warned).singleElement().asString().contains(marker).contains("Cannot find active jobs");
    }

    @Test
    void whatAJobHeldIsReleasedWhenItEnds() {
        List<String> released = new ArrayList<>();
        String result = JobRun.untracked(JobEngine.spark(spark), "holds").run("Cannot write 'x'", run -> {
            run.ship(new Configuration(false));
            run.hold("the source", released::add);
            return "done";
        });
        assertThat(result).isEqualTo("done");
        assertThat(released).containsExactly("the source");
    }

    /** As when YARN kills the application under a client-mode driver: Spark stops the context from its monitor. */
    @Test
    void aContextStoppedUnderTheJobFailsItWithoutReleasingWhatWentWithTheContext() {
        List<String> released = new ArrayList<>();
        assertThatThrownBy(() -> JobRun.untracked(JobEngine.spark(spark), "stopped under")
                        .run("Cannot write 'x'", run -> {
                            run.ship(new Configuration(false));
                            run.hold("the source", released::add);
                            spark.stop();
                            throw new IllegalStateException("Job 0 cancelled because SparkContext was shut down");
                        }))
                .isInstanceOf(JobFailedException.class)
                .hasMessageStartingWith("Cannot write 'x': the Spark job failed: ")
                .hasMessageContaining("Job 0 cancelled because SparkContext was shut down");
        assertThat(released).isEmpty();
    }
}
