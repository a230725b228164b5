package dev.tensorbroadcast.job.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.job.base.JobFailedException;
import dev.tensorbroadcast.job.base.JobProgress;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.LongAccumulator;
import org.junit.jupiter.api.Test;

/** A job whose tasks run in the driver's thread: no Spark context, the same skeleton around them. */
class DriverJobRunTest {
    /** What the progress heard, in order. */
    private static final class Heard implements JobProgress {
        final List<String> events = new ArrayList<>();

        @Override
        public void started(String description, long partitions, long bytes) {
            events.add("started " + description + " " + partitions + " " + bytes);
        }

        @Override
        public void advanced(long partitionsDone, long valueBytes) {
            events.add("advanced " + partitionsDone + " " + valueBytes);
        }

        @Override
        public void finished() {
            events.add("finished");
        }
    }

    @Test
    void theTasksRunInPartitionOrderWithTheDriversValuesAndAreHeard() {
        Heard heard = new Heard();
        List<String> released = new ArrayList<>();
        Configuration hadoop = new Configuration(false);
        hadoop.set("tensorbroadcast.test", "the driver's");
        StringBuilder shipped = new StringBuilder("shipped");
        List<String> results = JobRun.tracked(JobEngine.driver(hadoop, () -> false), "three tasks",
                new JobRun.Tracking(heard, "bytes", 3, 300)).run("Cannot write 'x'", run -> {
                    assertThat(run.inDriver()).isTrue();
                    assertThat(run.hadoopConfiguration().get("tensorbroadcast.test")).isEqualTo("the driver's");
                    Broadcast<StringBuilder> value = run.broadcast(shipped);
                    run.hold(value, broadcast -> released.add("value"));
                    LongAccumulator values = run.values();
                    return run.tasks(3, (Integer index, Iterator<Integer> partition) -> {
                        // a partition holds its own index, as parallelize gives it
                        assertThat(partition.next()).isEqualTo(index);
                        assertThat(value.value()).isSameAs(shipped);
                        values.add(100);
                        return List.of("task " + index).iterator();
                    });
                });
        assertThat(results).containsExactly("task 0", "task 1", "task 2");
        assertThat(heard.events).containsExactly("started three tasks 3 300", "advanced 1 100", "advanced 2 200",
                "advanced 3 300", "finished");
        assertThat(released).containsExactly("value");
    }

    /** Cancelled (a signal) between tasks: no further task starts, the job fails as Spark's would, undone. */
    @Test
    void aCancelledJobStopsBetweenTasksAndIsUndone() {
        AtomicBoolean cancelled = new AtomicBoolean();
        List<String> done = new ArrayList<>();
        assertThatThrownBy(() -> JobRun.untracked(JobEngine.driver(new Configuration(false), cancelled::get),
                "cancelled").onFailure(() -> done.add("aborted")).run("Cannot write 'x'", run -> {
                    run.hold("the source", done::add);
                    return run.tasks(3, (Integer index, Iterator<Integer> partition) -> {
                        done.add("task " + index);
                        cancelled.set(true);
                        return List.of(index).iterator();
                    });
                })).isInstanceOf(JobFailedException.class)
                .hasMessage("Cannot write 'x': the Spark job failed: the job was cancelled: the process is shutting"
                        + " down");
        assertThat(done).containsExactly("task 0", "aborted", "the source");
    }
}
