package dev.tensorbroadcast.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.localcluster.junit.WithLocalCluster;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.apache.spark.scheduler.TaskInfo;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Speculative execution on a two-host cluster (Spark never runs a copy on the host of the original, so each worker
 * has a loopback address of its own): one partition's first attempt is slow, a speculative copy overtakes it on the
 * other executor, the original is killed, and the dataset holds exactly one file per partition, byte for byte what
 * local mode writes.
 */
@WithLocalCluster(
        workers = 2,
        workerCores = 1,
        workerMemory = "1g",
        hdfs = true,
        distinctWorkerHosts = true,
        shared = true)
@Tag(SharedCluster.TAG)
class SpeculationIT {
    private static final int PARTITIONS = 12;
    private static final long SLOW_PARTITION = 5;

    @RegisterExtension
    static final CrashHarness run = CrashHarness.broadcasting(4, 480, 64)
            .partitions(PARTITIONS)
            .settings(Map.of(
                    "spark.speculation",
                    "true",
                    "spark.speculation.interval",
                    "100ms",
                    "spark.speculation.multiplier",
                    "1.5",
                    "spark.speculation.quantile",
                    "0.5",
                    "spark.speculation.minTaskRuntime",
                    "1s"));

    @Test
    void aSpeculativeCopyOvertakesTheSlowTaskAndTheOutputIsWhatLocalModeWrites() throws Exception {
        SparkSession spark = run.spark();
        Path output = run.output("speculated");
        List<TaskInfo> started = new CopyOnWriteArrayList<>();
        List<SparkListenerTaskEnd> ended = new CopyOnWriteArrayList<>();
        SparkListener listener = new SparkListener() {
            @Override
            public void onTaskStart(SparkListenerTaskStart taskStart) {
                started.add(taskStart.taskInfo());
            }

            @Override
            public void onTaskEnd(SparkListenerTaskEnd taskEnd) {
                ended.add(taskEnd);
            }
        };
        spark.sparkContext().addSparkListener(listener);
        Manifest manifest;
        long start = System.nanoTime();
        try {
            // the first attempt of one partition sleeps 60 s; a speculative copy does not
            spark.sparkContext().setLocalProperty(InjectedFailure.SLOW_PARTITION, Long.toString(SLOW_PARTITION));
            spark.sparkContext().setLocalProperty(InjectedFailure.SLOW_MILLIS, "60000");
            manifest = run.request(output).run(spark);
        } finally {
            spark.sparkContext().setLocalProperty(InjectedFailure.SLOW_PARTITION, null);
            spark.sparkContext().setLocalProperty(InjectedFailure.SLOW_MILLIS, null);
            // listener events arrive asynchronously: the last task's end may still be queued when the job returns
            spark.sparkContext().listenerBus().waitUntilEmpty();
            spark.sparkContext().removeSparkListener(listener);
        }
        double seconds = (System.nanoTime() - start) / 1e9;

        List<TaskInfo> speculative =
                started.stream().filter(TaskInfo::speculative).toList();
        assertThat(speculative).hasSize(1);
        TaskInfo copy = speculative.get(0);
        assertThat(copy.index()).isEqualTo((int) SLOW_PARTITION);
        assertThat(copy.attemptNumber()).isEqualTo(1);
        TaskInfo original = started.stream()
                .filter(task -> task.index() == SLOW_PARTITION && !task.speculative())
                .findFirst()
                .orElseThrow();
        assertThat(copy.host()).isNotEqualTo(original.host());
        // the copy finished; the original was killed, well before its 60 s were up
        assertThat(ended.stream()
                        .filter(end -> end.taskInfo().taskId() == copy.taskId())
                        .findFirst()
                        .orElseThrow()
                        .taskInfo()
                        .successful())
                .isTrue();
        assertThat(seconds).isLessThan(60);

        run.assertComplete(output, manifest);
        System.out.printf(
                "speculation: %d task starts for %d partitions, copy of partition %d on %s overtook the"
                        + " original on %s; job %.1f s%n",
                started.size(), PARTITIONS, SLOW_PARTITION, copy.host(), original.host(), seconds);
    }
}
