package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.localcluster.ClusterState;
import dev.tensorbroadcast.localcluster.ClusterStateDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cluster start --yarn} as a user runs it, in a process of its own (one NodeManager, no HDFS: the smallest
 * YARN): what it prints, {@code cluster status}, {@code expand --master yarn} on it as the start says (YarnSubmitIT
 * runs {@code --master local-cluster}), and {@code cluster stop} leaving no process behind.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterYarnCommandIT {
    @TempDir
    static Path dir;

    private static Path state;
    private static Process starter;
    private static String printed;

    @BeforeAll
    static void startYarn() throws Exception {
        state = dir.resolve("state");
        System.setProperty(ClusterStateDirectory.PROPERTY, state.toString());
        Path log = dir.resolve("start.log");
        long start = System.nanoTime();
        starter = CliProcess.start(
                Map.of(ClusterStateDirectory.ENVIRONMENT, state.toString()),
                log,
                "cluster",
                "start",
                "--yarn",
                "--workers",
                "1",
                "--worker-memory",
                "2g");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (System.nanoTime() < deadline
                && starter.isAlive()
                && !CliProcess.read(log).contains("run a job")) {
            Thread.sleep(200);
        }
        printed = CliProcess.read(log);
        assertThat(printed).as("cluster start's output").contains("run a job");
        System.out.printf("cluster start --yarn printed its lines after %.1f s%n", (System.nanoTime() - start) / 1e9);
    }

    @AfterAll
    static void stopWhateverIsLeft() {
        System.clearProperty(ClusterStateDirectory.PROPERTY);
        if (starter != null && starter.isAlive()) {
            starter.descendants().forEach(ProcessHandle::destroyForcibly);
            starter.destroyForcibly();
        }
    }

    @Test
    @Order(1)
    void startPrintsTheHadoopConfDirectoryAndASparkSubmitLine() {
        Path work = state.resolve("run-" + starter.pid());
        List<String> lines = printed.lines().toList();
        assertThat(lines.get(0))
                .matches("local YARN cluster started in \\d+\\.\\d s: 1 NodeManager, 1 core and 2g" + " each");
        assertThat(lines)
                .contains(
                        "master:      yarn",
                        "hadoop conf: " + work.resolve("hadoop-conf"),
                        "properties:  " + work.resolve("spark-yarn.properties"),
                        "logs:        " + work);
        assertThat(lines)
                .anySatisfy(line -> assertThat(line)
                        .isEqualTo("submit with: HADOOP_CONF_DIR="
                                + work.resolve("hadoop-conf")
                                + " spark-submit --master yarn --deploy-mode client --properties-file "
                                + work.resolve("spark-yarn.properties") + " --class "
                                + TensorBroadcastCli.class.getName() + " "
                                + System.getProperty("tensorbroadcast.spark.jars") + " expand ..."));
        assertThat(work.resolve("hadoop-conf").resolve("yarn-site.xml")).isRegularFile();
    }

    @Test
    @Order(2)
    void statusShowsTheResourceManagersView() {
        CliRun status = CliRun.of("cluster", "status", "--json");
        assertThat(status.exitCode()).as(status.err()).isEqualTo(0);
        JsonNode json = status.json();
        assertThat(json.get("master_url").asText()).isEqualTo("yarn");
        assertThat(json.get("master_answers").asBoolean()).isTrue();
        assertThat(json.get("alive_workers").asInt()).isEqualTo(1);
        assertThat(json.get("hadoop_conf_dir").asText()).endsWith("hadoop-conf");
        CliRun text = CliRun.of("cluster", "status");
        assertThat(text.out()).contains("workers:     1 alive of 1 NodeManagers\n");
    }

    @Test
    @Order(3)
    void expandRunsOnItWithMasterYarn() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("rows.npy"), new long[] {2, 1, 16});
        Path output = dir.resolve("out");
        Path log = dir.resolve("expand.log");
        long start = System.nanoTime();
        Process cli = CliProcess.start(
                Map.of(ClusterStateDirectory.ENVIRONMENT, state.toString()),
                log,
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "2,8,16",
                "--partitions",
                "2",
                "--output",
                output.toString(),
                "--master",
                "yarn");
        assertThat(cli.waitFor(240, TimeUnit.SECONDS)).as(CliProcess.read(log)).isTrue();
        assertThat(cli.exitValue()).as(CliProcess.read(log)).isZero();
        System.out.printf("expand --master yarn: %.1f s%n", (System.nanoTime() - start) / 1e9);
        JsonNode manifest =
                Json.MAPPER.readTree(output.resolve("_manifest.json").toFile());
        List<String> executors = new ArrayList<>();
        manifest.get("files")
                .forEach(file -> executors.add(file.get("executor_id").asText()));
        assertThat(executors).hasSize(2).doesNotContain("driver");
    }

    @Test
    @Order(4)
    void stopStopsEveryProcessAndForgetsTheCluster() throws Exception {
        ClusterState recorded = ClusterStateDirectory.locate().read().orElseThrow();
        List<ProcessHandle> processes = new ArrayList<>();
        for (ClusterState.ClusterProcess process : recorded.processes()) {
            ProcessHandle handle = process.live().orElseThrow();
            processes.add(handle);
            handle.descendants().forEach(processes::add);
        }
        assertThat(processes).isNotEmpty();
        CliRun stop = CliRun.of("cluster", "stop");
        assertThat(stop.exitCode()).as(stop.err()).isEqualTo(0);
        assertThat(stop.out()).isEqualTo("stopped the local cluster at yarn\n");
        assertThat(starter.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(processes).noneMatch(ProcessHandle::isAlive);
        assertThat(state.resolve("cluster.json")).doesNotExist();
        assertThat(Files.exists(state.resolve("run-" + starter.pid()))).isFalse();
    }
}
