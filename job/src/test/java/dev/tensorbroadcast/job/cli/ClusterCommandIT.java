package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.localcluster.ClusterState;
import dev.tensorbroadcast.localcluster.ClusterStateDirectory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line's cluster lifecycle, as a user runs it: {@code cluster start} in a process of its own,
 * {@code cluster status}, {@code expand} with the printed master URL, drivers without the secret or with a wrong
 * one refused in bounded time, and {@code cluster stop} leaving no process behind.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterCommandIT {
    /** LineProgress's line, e.g. {@code partitions 0/1, 48 B of 48 B of values written, 4 B/s, 0 s left}. */
    private static final Pattern PROGRESS =
            Pattern.compile("partitions \\d+/\\d+, .* of .* of values written, .*/s, .* left");

    /** Short: a refused driver only waits it out (the production default is 20 s); a bound is what is asserted. */
    private static final int REFUSAL_TIMEOUT_SECONDS = 5;

    @TempDir
    static Path dir;

    private static Path state;
    private static Process starter;
    private static String masterUrl;

    @BeforeAll
    static void startTheCluster() throws Exception {
        state = dir.resolve("state");
        System.setProperty(ClusterStateDirectory.PROPERTY, state.toString());
        Path log = dir.resolve("start.log");
        starter = CliProcess.start(
                Map.of(ClusterStateDirectory.ENVIRONMENT, state.toString()),
                log,
                "cluster",
                "start",
                "--workers",
                "1",
                "--worker-memory",
                "1g");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline
                && starter.isAlive()
                && !CliProcess.read(log).contains("secret file:")) {
            Thread.sleep(200);
        }
        assertThat(CliProcess.read(log)).as("cluster start's output").contains("secret file:");
        masterUrl = CliProcess.read(log)
                .lines()
                .filter(line -> line.startsWith("master:"))
                .findFirst()
                .orElseThrow()
                .substring("master:".length())
                .strip();
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
    void statusShowsTheRunningCluster() {
        CliRun status = CliRun.of("cluster", "status");
        assertThat(status.exitCode()).as(status.err()).isEqualTo(0);
        assertThat(status.out())
                .contains("master:      " + masterUrl + "\n")
                .contains("workers:     1 alive of 1\n")
                .contains(
                        "secret file: " + state.resolve("run-" + starter.pid()).resolve("spark-cluster.properties"));
        assertThat(masterUrl).matches("spark://127\\.0\\.0\\.1:\\d+");
    }

    @Test
    @Order(2)
    void expandRunsOnThePrintedMasterWithoutBeingGivenTheSecret() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("rows.npy"), new long[] {2, 1, 16});
        Path output = dir.resolve("out");
        CliRun expand = CliRun.of(
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
                masterUrl);
        assertThat(expand.exitCode()).as(expand.err()).isEqualTo(0);
        JsonNode manifest = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(output.resolve("_manifest.json").toFile());
        List<String> executors = new ArrayList<>();
        manifest.get("files")
                .forEach(file -> executors.add(file.get("executor_id").asText()));
        assertThat(executors).hasSize(2).doesNotContain("driver");
    }

    /**
     * What a run on the cluster prints is its own lines: no stack trace after the result (a broadcast removed
     * without waiting left requests to the exiting executors, whose failures Spark printed as a
     * RejectedExecutionException about one run in four), and a task's failure is one line without Spark's ERROR
     * lines unless --verbose. Several runs, since the race was intermittent.
     */
    @Test
    @Order(2)
    void runsOnTheClusterPrintOnlyTheirOwnLines() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("quiet.npy"), new long[] {1, 3});
        Map<String, String> environment = Map.of(ClusterStateDirectory.ENVIRONMENT, state.toString());
        for (int run = 0; run < 4; run++) {
            Path log = dir.resolve("quiet-" + run + ".log");
            List<String> arguments = new ArrayList<>(List.of(
                    "expand",
                    "--input",
                    source.toString(),
                    "--dialect",
                    "numpy",
                    "--shape",
                    "4,3",
                    "--master",
                    "local-cluster"));
            arguments.addAll(
                    run % 2 == 0
                            ? List.of("--output", dir.resolve("quiet-" + run).toString())
                            : List.of("--format", "null"));
            Process cli = CliProcess.start(environment, log, arguments.toArray(String[]::new));
            assertThat(cli.waitFor(180, TimeUnit.SECONDS))
                    .as(CliProcess.read(log))
                    .isTrue();
            String printed = CliProcess.read(log);
            assertThat(cli.exitValue()).as(printed).isZero();
            // a progress line is our own too, printed when the run is slow (15 s on a loaded CI machine)
            List<String> lines = printed.lines()
                    .filter(line -> !PROGRESS.matcher(line).matches())
                    .toList();
            // a written dataset's last line says how to read it; a discarded one has nothing to read
            assertThat(lines).as(printed).hasSize(run % 2 == 0 ? 3 : 2);
            assertThat(lines.get(1)).as(printed).startsWith(run % 2 == 0 ? "wrote " : "computed and discarded ");
            if (run % 2 == 0) {
                assertThat(lines.get(2))
                        .as(printed)
                        .startsWith("to read it: pyarrow.dataset.dataset('" + dir.resolve("quiet-" + run)
                                + "', format='arrow')");
            }
        }

        Path features = Files.createDirectories(dir.resolve("features"));
        dev.tensorbroadcast.arrowio.source.DatasetFixtures.sql("COPY (SELECT CASE WHEN i = 1300 THEN [1.0::FLOAT, 2.0,"
                + " 3.0] ELSE [1.0::FLOAT, 2, 3, 4] END AS tensor FROM range(0, 2000) t(i) ORDER BY i) TO '"
                + features.resolve("a.parquet") + "' (FORMAT PARQUET)");
        for (boolean verbose : new boolean[] {false, true}) {
            Path log = dir.resolve("bad-row-" + verbose + ".log");
            List<String> arguments = new ArrayList<>(List.of(
                    "expand",
                    "--input",
                    features.toString(),
                    "--row-shape",
                    "[4]",
                    "--dialect",
                    "numpy",
                    "--shape",
                    "2000,4",
                    "--ship-threshold",
                    "1k",
                    "--output",
                    dir.resolve("bad-row-" + verbose).toString(),
                    "--master",
                    "local-cluster"));
            if (verbose) {
                arguments.add("--verbose");
            }
            Process cli = CliProcess.start(environment, log, arguments.toArray(String[]::new));
            assertThat(cli.waitFor(180, TimeUnit.SECONDS))
                    .as(CliProcess.read(log))
                    .isTrue();
            String printed = CliProcess.read(log);
            assertThat(cli.exitValue()).as(printed).isEqualTo(ExitCode.REFUSED);
            String line = "Cannot read file:" + features.resolve("a.parquet") + ": row 1300 has 3 values; every row"
                    + " needs 4 (--row-shape)";
            if (verbose) {
                assertThat(printed).contains(line + "\n").contains("ERROR TaskSetManager: ");
            } else {
                // the line saying what will be written (Spark ran), then the task's one line
                assertThat(printed.lines().toList()).as(printed).hasSize(2).endsWith(line);
            }
        }
    }

    @Test
    @Order(3)
    void aDriverWithoutTheSecretIsRefusedInBoundedTime() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("no-state"));
        assertRefused(empty, masterUrl, masterUrl);
    }

    @Test
    @Order(4)
    void aDriverWithAWrongSecretIsRefusedInBoundedTime() throws Exception {
        Path wrong = Files.createDirectories(dir.resolve("wrong-state"));
        Path secret = wrong.resolve("spark-cluster.properties");
        Files.writeString(secret, "spark.authenticate=true\nspark.authenticate.secret=" + "0".repeat(64) + "\n");
        String recorded = Files.readString(state.resolve("cluster.json"), StandardCharsets.UTF_8);
        ClusterState real = Json.MAPPER.readValue(recorded, ClusterState.class);
        Files.writeString(
                wrong.resolve("cluster.json"),
                Json.MAPPER.writeValueAsString(new ClusterState(
                        real.owner(),
                        real.masterUrl(),
                        real.masterUiPort(),
                        real.workers(),
                        null,
                        secret.toString(),
                        real.workDirectory(),
                        real.processes())),
                StandardOpenOption.CREATE_NEW);
        assertRefused(wrong, "local-cluster", masterUrl);
    }

    @Test
    @Order(5)
    void stopStopsEveryProcessAndForgetsTheCluster() throws Exception {
        ClusterState recorded = ClusterStateDirectory.locate().read().orElseThrow();
        List<ProcessHandle> processes = new ArrayList<>();
        for (ClusterState.ClusterProcess process : recorded.processes()) {
            processes.add(process.live().orElseThrow());
        }
        assertThat(processes).hasSize(2);

        CliRun stop = CliRun.of("cluster", "stop");
        assertThat(stop.exitCode()).as(stop.err()).isEqualTo(0);
        assertThat(stop.out()).isEqualTo("stopped the local cluster at " + masterUrl + "\n");
        assertThat(starter.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(processes).noneMatch(ProcessHandle::isAlive);
        assertThat(state.resolve("cluster.json")).doesNotExist();
        assertThat(state.resolve("run-" + starter.pid())).doesNotExist();
        CliRun status = CliRun.of("cluster", "status");
        assertThat(status.exitCode()).isEqualTo(3);
        assertThat(status.out()).isEqualTo("no local cluster is running\n");
    }

    @Test
    @Order(6)
    void withNoClusterRunningLocalClusterIsRefusedAtOnce() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 4});
        CliRun expand = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "2,4",
                "--output",
                dir.resolve("none").toString(),
                "--master",
                "local-cluster");
        assertThat(expand.exitCode()).isEqualTo(2);
        assertThat(expand.err().lines().filter(line -> line.startsWith("Cannot")))
                .containsExactly("Cannot run on the local cluster: none is running (nothing running is recorded in "
                        + state + "); start one with 'tensor-broadcast cluster start'");
    }

    private static void assertRefused(Path stateDirectory, String master, String url) throws Exception {
        Path source = NpyFiles.int32(dir.resolve("refused.npy"), new long[] {1, 4});
        Path output = dir.resolve("refused-" + stateDirectory.getFileName());
        Path log = dir.resolve(stateDirectory.getFileName() + ".log");
        long start = System.nanoTime();
        Process driver = CliProcess.start(
                Map.of(ClusterStateDirectory.ENVIRONMENT, stateDirectory.toString()),
                log,
                "-D" + SparkSessions.REGISTRATION_TIMEOUT_PROPERTY + "=" + REFUSAL_TIMEOUT_SECONDS,
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "2,4",
                "--output",
                output.toString(),
                "--master",
                master);
        assertThat(driver.waitFor(90, TimeUnit.SECONDS))
                .as(CliProcess.read(log))
                .isTrue();
        double seconds = (System.nanoTime() - start) / 1e9;
        assertThat(driver.exitValue()).as(CliProcess.read(log)).isEqualTo(2);
        assertThat(CliProcess.read(log).lines().filter(line -> line.startsWith("Cannot")))
                .containsExactly("Cannot start Spark"
                        + " on master '" + url + "': the master did not accept this driver within "
                        + REFUSAL_TIMEOUT_SECONDS
                        + " s; it is not running there, or it refused the driver's authentication"
                        + " (spark.authenticate.secret missing or not the cluster's)");
        assertThat(output).doesNotExist();
        System.out.printf("refused %s in %.1f s%n", stateDirectory.getFileName(), seconds);
    }
}
