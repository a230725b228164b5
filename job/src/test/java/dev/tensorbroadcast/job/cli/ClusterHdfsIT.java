package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tensorbroadcast.job.commit.FaultPoint;
import dev.tensorbroadcast.job.commit.OutputLock;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code expand --master local-cluster} reading its source from and writing its dataset to the cluster's HDFS, then
 * {@code inspect} and {@code verify} reading it back from there; a driver killed while it takes its output's lock there.
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

    /**
     * A driver halted (as SIGKILL stops it: no shutdown hook) while it takes its output's lock on HDFS, with the lock's
     * owner line written under its staged name or with the lock in place, leaves nothing that stops the next run: a
     * rerun started at once exits 0 and leaves the dataset complete, without the lock or its staged copy. The lock
     * used to be created at its name, and one a driver was killed writing stayed open under the dead client's lease:
     * HDFS refused the rerun's lock ("lease is currently owned by ...", exit 2) until the NameNode took the lease back,
     * a minute later (the fault soak, issue 40).
     */
    @ParameterizedTest
    @ValueSource(strings = {"lock.staged", "lock.created"})
    void aDriverKilledWhileItTakesTheLockStopsNoRerun(String point) throws Exception {
        Path source = NpyFiles.int32(dir.resolve(point + ".npy"), new long[] {1, 64});
        String directory = HOME + "/killed-" + point;
        List<String> expand = List.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "8,64",
                "--partitions",
                "2",
                "--output",
                hdfs + directory);
        Path log = dir.resolve(point + ".log");
        List<String> halted = new ArrayList<>(expand);
        halted.add(0, "-D" + FaultPoint.HALT_AT + "=" + point);
        Process killed = CliProcess.start(Map.of(), log, halted.toArray(String[]::new));
        assertThat(killed.waitFor(5, TimeUnit.MINUTES)).as(CliProcess.read(log)).isTrue();
        assertThat(killed.exitValue()).as(CliProcess.read(log)).isEqualTo(137);
        try (FileSystem fileSystem = FileSystem.newInstance(hdfs, new Configuration())) {
            List<String> left = names(fileSystem, directory);
            assertThat(left).singleElement().satisfies(name -> {
                assertThat(OutputLock.isLockName(name)).as(name).isTrue();
                assertThat(name.equals(OutputLock.FILE_NAME)).as(name).isEqualTo(point.equals("lock.created"));
            });
            CliRun stopped = CliRun.of("inspect", hdfs + directory, "--json");
            assertThat(stopped.exitCode()).as(stopped.out() + stopped.err()).isEqualTo(1);
            assertThat(stopped.json().path("incomplete").toString()).contains(left.get(0) + " is there");

            List<String> again = new ArrayList<>(expand);
            again.add("--overwrite");
            CliRun rerun = CliRun.of(again.toArray(String[]::new));
            assertThat(rerun.exitCode()).as(rerun.err()).isEqualTo(0);
            assertThat(names(fileSystem, directory))
                    .containsExactlyInAnyOrder(
                            "part-00000.arrow", "part-00001.arrow", Manifest.FILE_NAME, Manifest.SUCCESS_FILE_NAME);
        }
        CliRun inspect = CliRun.of("inspect", hdfs + directory, "--json");
        assertThat(inspect.exitCode()).as(inspect.out() + inspect.err()).isEqualTo(0);
        assertThat(inspect.json().get("complete").asBoolean()).isTrue();
    }

    private static List<String> names(FileSystem fileSystem, String directory) throws java.io.IOException {
        return Arrays.stream(fileSystem.listStatus(new org.apache.hadoop.fs.Path(directory)))
                .map(FileStatus::getPath)
                .map(org.apache.hadoop.fs.Path::getName)
                .toList();
    }
}
