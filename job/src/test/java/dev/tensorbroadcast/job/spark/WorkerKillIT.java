package dev.tensorbroadcast.job.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.manifest.DatasetFile;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.localcluster.LocalCluster;
import dev.tensorbroadcast.localcluster.junit.WithLocalCluster;
import dev.tensorbroadcast.planner.Dialect;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker JVM killed with SIGKILL while the job runs: its executor goes with it, the job finishes on the other
 * worker, and the dataset is complete and byte for byte what local mode writes. A class of its own, as the cluster
 * is one worker short afterwards.
 */
@WithLocalCluster(workers = 2, workerCores = 1, workerMemory = "1g")
class WorkerKillIT {
    private static final int PARTITIONS = 24;

    @TempDir
    static Path dir;

    private static Path source;
    private static Path reference;
    private static SparkSession spark;

    @BeforeAll
    static void referenceInLocalModeThenConnect(LocalCluster cluster) throws Exception {
        source = NpyFiles.int32(dir.resolve("rows.npy"), new long[] {4, 1, 64});
        reference = dir.resolve("local");
        SparkSession local = LocalSpark.start();
        try {
            request(reference).run(local);
        } finally {
            local.stop();
        }
        spark = ClusterRuns.session(cluster);
    }

    @AfterAll
    static void disconnect() {
        if (spark != null) {
            spark.stop();
        }
    }

    private static TensorBroadcast request(Path output) {
        return TensorBroadcast.builder().source(source.toString()).dialect(Dialect.NUMPY).shape(4, 960, 64)
                .partitions(PARTITIONS).output(output.toString()).build();
    }

    @Test
    void aKilledWorkerTakesItsExecutorAlongAndTheJobFinishesOnTheOther(LocalCluster cluster) throws Exception {
        Path output = dir.resolve("killed");
        ClusterRuns.Kill aWorker = () -> {
            List<ProcessHandle> workers = ClusterRuns.workers(cluster);
            assertThat(workers).hasSize(2);
            ProcessHandle victim = workers.get(0);
            List<ProcessHandle> executors = ClusterRuns.executors(cluster);
            List<ProcessHandle> itsExecutors = victim.descendants().filter(executors::contains).toList();
            assertThat(itsExecutors).hasSize(1);
            String executorId = ClusterRuns.executorId(itsExecutors.get(0));
            assertThat(victim.destroyForcibly()).isTrue();
            assertThat(victim.onExit().get(30, TimeUnit.SECONDS).isAlive()).isFalse();
            // the executor notices its worker is gone and exits
            assertThat(itsExecutors.get(0).onExit().get(60, TimeUnit.SECONDS).isAlive()).isFalse();
            return executorId;
        };
        ClusterRuns.AfterKill<Manifest> killed = ClusterRuns.killingWhileRunning(spark, 500, 2, aWorker,
                () -> request(output).run(spark));

        Manifest manifest = killed.result();
        assertThat(manifest.files().stream().map(DatasetFile::partition).toList())
                .isEqualTo(LongStream.range(0, PARTITIONS).boxed().toList());
        ClusterRuns.assertSameFiles(output, reference);
        ClusterRuns.assertOnlyDatasetFiles(output, manifest);
        System.out.printf("worker killed: job finished in %.1f s, %d task ends for %d partitions%n",
                killed.seconds(), killed.taskEnds(), PARTITIONS);
    }
}
