package dev.tensorbroadcast.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.manifest.DatasetFile;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.localcluster.LocalCluster;
import dev.tensorbroadcast.localcluster.ProcessCluster;
import dev.tensorbroadcast.localcluster.junit.WithLocalCluster;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code expand} on a real two-worker cluster: tasks run in separate executor JVMs that load our classes from the
 * spark-submit jar, and the output is byte for byte what local mode writes, also when an executor JVM is killed
 * while the job runs; and a feature table on the cluster's HDFS, over the ship threshold, expanded per row into HDFS
 * by tasks that each read only their slice of it.
 */
@WithLocalCluster(
        workers = 2,
        workerCores = 1,
        workerMemory = "1g",
        hdfs = true,
        distinctWorkerHosts = true,
        shared = true)
@Tag(SharedCluster.TAG)
class ClusterExpandIT {
    /** This class's directory on the shared cluster's HDFS. */
    private static final String HOME = "/ClusterExpandIT";

    @RegisterExtension
    static final CrashHarness run = CrashHarness.broadcasting(4, 960, 64).partitions(24);

    @Test
    void tasksRunInTwoExecutorsAndWriteWhatLocalModeWrites() throws Exception {
        SparkSession spark = run.spark();
        Path output = run.output("cluster");
        Manifest manifest = run.request(output).run(spark);

        Set<String> executors =
                manifest.files().stream().map(DatasetFile::executorId).collect(Collectors.toSet());
        assertThat(executors).doesNotContain("driver").hasSizeGreaterThanOrEqualTo(2);
        run.assertComplete(output, manifest);
    }

    @Test
    void aFeatureTableOnHdfsIsReadBySlicesAndExpandedIntoHdfs(LocalCluster cluster) throws Exception {
        SparkSession spark = run.spark();
        URI hdfs = cluster.hdfsUri().orElseThrow();
        Path features = FeatureTable.write(run.output("features"), spark);
        long a = Files.size(features.resolve("a.arrow"));
        long b = Files.size(features.resolve("b.parquet"));
        long c = Files.size(features.resolve("c-spark.parquet"));
        Configuration conf = spark.sparkContext().hadoopConfiguration();
        try (FileSystem fileSystem = FileSystem.newInstance(hdfs, conf)) {
            fileSystem.copyFromLocalFile(
                    new org.apache.hadoop.fs.Path(features.toString()),
                    new org.apache.hadoop.fs.Path(HOME + "/features"));
        }
        // 40 KiB of values: over this threshold, so the tasks read the files themselves
        TensorBroadcast broadcast = FeatureTable.expand(hdfs + HOME + "/features", hdfs + HOME + "/expanded")
                .shipThreshold(16 << 10)
                .build();
        assertThat(broadcast.prepare(conf).sourceStrategy(0)).isEqualTo("slices");

        Manifest manifest = broadcast.run(spark);

        assertThat(manifest.files()).extracting(DatasetFile::executorId).doesNotContain("driver");
        Path copied = run.output("expanded");
        try (FileSystem fileSystem = FileSystem.newInstance(hdfs, conf)) {
            assertThat(fileSystem.exists(
                            new org.apache.hadoop.fs.Path(HOME + "/expanded/" + Manifest.SUCCESS_FILE_NAME)))
                    .isTrue();
            fileSystem.copyToLocalFile(
                    false,
                    new org.apache.hadoop.fs.Path(HOME + "/expanded"),
                    new org.apache.hadoop.fs.Path(copied.toString()),
                    true);
        }
        DatasetFiles.checkFiles(copied, manifest);
        FeatureTable.assertExpanded(copied, manifest);
        FeatureTable.assertEachTaskReadItsSlice(
                manifest.files().stream().map(DatasetFile::sourceRead).toList(), a, b, c);
    }

    @Test
    void aKilledExecutorLosesNothingAndLeavesNothingBehind(ProcessCluster cluster) throws Exception {
        SparkSession spark = run.spark();
        Path output = run.output("killed");
        ClusterRuns.AfterKill<Manifest> killed = ClusterRuns.killingWhileRunning(
                spark,
                500,
                2,
                ClusterRuns.anExecutor(cluster),
                () -> run.request(output).run(spark));

        assertThat(killed.taskEnds()).isGreaterThan(run.partitions());
        run.assertComplete(output, killed.result());
    }
}
