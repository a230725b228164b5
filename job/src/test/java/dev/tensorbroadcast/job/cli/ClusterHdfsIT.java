package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.pipeline.ClusterRuns;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.SharedCluster;
import dev.tensorbroadcast.localcluster.ClusterState;
import dev.tensorbroadcast.localcluster.ClusterStateDirectory;
import dev.tensorbroadcast.localcluster.ProcessCluster;
import dev.tensorbroadcast.localcluster.junit.WithLocalCluster;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code expand --master local-cluster} reading its source from and writing its dataset to the cluster's HDFS, then
 * {@code inspect} and {@code verify} reading it back from there.
 */
@WithLocalCluster(
        workers = 2,
        workerCores = 1,
        workerMemory = "1g",
        hdfs = true,
        distinctWorkerHosts = true,
        shared = true)
@Tag(SharedCluster.TAG)
class ClusterHdfsIT {
    /** This class's directory on the shared cluster's HDFS. */
    private static final String HOME = "/ClusterHdfsIT";

    @TempDir
    static Path dir;

    private static URI hdfs;

    /** Records the cluster as 'cluster start' would, so the command line finds it and its secret. */
    @BeforeAll
    static void recordTheCluster(ProcessCluster cluster) {
        hdfs = cluster.hdfsUri().orElseThrow();
        System.setProperty(ClusterStateDirectory.PROPERTY, dir.resolve("state").toString());
        ClusterStateDirectory states = ClusterStateDirectory.locate();
        states.create();
        states.write(new ClusterState(
                ClusterState.ClusterProcess.of(ProcessHandle.current()),
                cluster.masterUrl(),
                cluster.masterUiPort(),
                cluster.workers(),
                hdfs.toString(),
                cluster.secretFile().toString(),
                cluster.workDirectory().toString(),
                List.of()));
    }

    @AfterAll
    static void forget() {
        System.clearProperty(ClusterStateDirectory.PROPERTY);
    }

    @Test
    void expandReadsFromAndWritesToHdfs() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("rows.npy"), new long[] {4, 1, 64});
        Configuration conf = new Configuration();
        try (FileSystem fileSystem = FileSystem.newInstance(hdfs, conf)) {
            fileSystem.copyFromLocalFile(
                    new org.apache.hadoop.fs.Path(source.toString()),
                    new org.apache.hadoop.fs.Path(HOME + "/in/rows.npy"));
        }
        String input = hdfs + HOME + "/in/rows.npy";
        String output = hdfs + HOME + "/out";

        CliRun expand = CliRun.of(
                "expand",
                "--input",
                input,
                "--dialect",
                "numpy",
                "--shape",
                "4,96,64",
                "--partitions",
                "4",
                "--output",
                output,
                "--master",
                "local-cluster",
                "--json");
        assertThat(expand.exitCode()).as(expand.err()).isEqualTo(0);
        assertThat(expand.json().get("output").asText()).isEqualTo(output);
        assertThat(expand.json().get("files").asInt()).isEqualTo(4);

        CliRun inspect = CliRun.of("inspect", output, "--json");
        assertThat(inspect.exitCode()).as(inspect.out() + inspect.err()).isEqualTo(0);
        JsonNode report = inspect.json();
        assertThat(report.get("complete").asBoolean()).as(report.toString()).isTrue();
        assertThat(report.get("files").asInt()).isEqualTo(4);
        CliRun verify = CliRun.of("verify", output, "--source", input);
        assertThat(verify.exitCode()).as(verify.out() + verify.err()).isEqualTo(0);

        // byte for byte what local mode writes
        Path local = dir.resolve("local");
        CliRun reference = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "4,96,64",
                "--partitions",
                "4",
                "--output",
                local.toString(),
                "--master",
                "local[2]");
        assertThat(reference.exitCode()).as(reference.err()).isEqualTo(0);
        Path copied = dir.resolve("copied");
        try (FileSystem fileSystem = FileSystem.newInstance(hdfs, conf)) {
            fileSystem.copyToLocalFile(
                    false,
                    new org.apache.hadoop.fs.Path(HOME + "/out"),
                    new org.apache.hadoop.fs.Path(copied.toString()),
                    true);
            assertThat(fileSystem.exists(new org.apache.hadoop.fs.Path(HOME + "/out/" + Manifest.SUCCESS_FILE_NAME)))
                    .isTrue();
        }
        ClusterRuns.assertSameFiles(copied, local);
    }
}
