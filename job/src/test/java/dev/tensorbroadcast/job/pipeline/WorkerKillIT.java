package dev.tensorbroadcast.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.localcluster.ProcessCluster;
import dev.tensorbroadcast.localcluster.junit.WithLocalCluster;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A worker JVM killed with SIGKILL while the job runs: its executor goes with it, the job finishes on the other
 * worker, and the dataset is complete and byte for byte what local mode writes. On the shared cluster, the last of
 * its classes ({@link SharedClusterSuiteIT} orders them): the cluster is one worker short afterwards, and a class
 * after this one would get a cluster of its own, as the extension hands on no cluster one of whose processes exited.
 */
@WithLocalCluster(
        workers = 2,
        workerCores = 1,
        workerMemory = "1g",
        hdfs = true,
        distinctWorkerHosts = true,
        shared = true)
@Tag(SharedCluster.TAG)
@Order(Integer.MAX_VALUE)
class WorkerKillIT {
    @RegisterExtension
    static final CrashHarness run = CrashHarness.broadcasting(4, 960, 64).partitions(24);

    @Test
    void aKilledWorkerTakesItsExecutorAlongAndTheJobFinishesOnTheOther(ProcessCluster cluster) throws Exception {
        Path output = run.output("killed");
        ClusterRuns.Kill aWorker = () -> {
            List<ProcessHandle> workers = ClusterRuns.workers(cluster);
            assertThat(workers).hasSize(2);
            ProcessHandle victim = workers.get(0);
            List<ProcessHandle> executors = ClusterRuns.executors(cluster);
            List<ProcessHandle> itsExecutors =
                    victim.descendants().filter(executors::contains).toList();
            assertThat(itsExecutors).hasSize(1);
            String executorId = ClusterRuns.executorId(itsExecutors.get(0));
            assertThat(victim.destroyForcibly()).isTrue();
            assertThat(victim.onExit().get(30, TimeUnit.SECONDS).isAlive()).isFalse();
            // the executor notices its worker is gone and exits
            assertThat(itsExecutors.get(0).onExit().get(60, TimeUnit.SECONDS).isAlive())
                    .isFalse();
            return executorId;
        };
        ClusterRuns.AfterKill<Manifest> killed = ClusterRuns.killingWhileRunning(
                run.spark(), 500, 2, aWorker, () -> run.request(output).run(run.spark()));

        run.assertComplete(output, killed.result());
        System.out.printf(
                "worker killed: job finished in %.1f s, %d task ends for %d partitions%n",
                killed.seconds(), killed.taskEnds(), run.partitions());
    }
}
