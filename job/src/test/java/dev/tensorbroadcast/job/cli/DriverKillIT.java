package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.commit.OutputLock;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.pipeline.ClusterRuns;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.SharedCluster;
import dev.tensorbroadcast.localcluster.ClusterState;
import dev.tensorbroadcast.localcluster.ClusterStateDirectory;
import dev.tensorbroadcast.localcluster.LocalCluster;
import dev.tensorbroadcast.localcluster.ProcessCluster;
import dev.tensorbroadcast.localcluster.junit.WithLocalCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code expand} as a user runs it, in a driver process of its own on a two-worker cluster, killed with SIGKILL
 * while its tasks run: what is left holds no {@code _SUCCESS}, no manifest and no part file where a reader looks,
 * {@code inspect} and {@code verify} call it incomplete, and {@code expand --overwrite} then writes the full dataset.
 */
@WithLocalCluster(
        workers = 2,
        workerCores = 1,
        workerMemory = "1g",
        hdfs = true,
        distinctWorkerHosts = true,
        shared = true)
@Tag(SharedCluster.TAG)
class DriverKillIT {
    private static final int PARTITIONS = 24;
    private static final String SHAPE = "4,960,64";
    /** Where Hadoop's committer keeps a running job's attempts: committed ones and ones in progress. */
    private static final Pattern LEFTOVER = Pattern.compile(
            "_temporary/0/(task_\\d+_\\d+_m_\\d{6}|_temporary/attempt_\\d+_\\d+_m_\\d{6}_\\d+)/part-\\d{5}\\.arrow");

    @TempDir
    static Path dir;

    private static Path source;
    private static Path reference;
    private static Map<String, String> environment;

    @BeforeAll
    static void referenceInLocalModeAndTheClusterRecorded(ProcessCluster cluster) throws Exception {
        source = NpyFiles.int32(dir.resolve("rows.npy"), new long[] {4, 1, 64});
        reference = dir.resolve("local");
        CliRun local = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                SHAPE,
                "--partitions",
                Integer.toString(PARTITIONS),
                "--output",
                reference.toString(),
                "--master",
                "local[2]");
        assertThat(local.exitCode()).as(local.err()).isEqualTo(0);
        // the driver process finds the cluster's secret as 'cluster start' records it; this JVM owns the cluster
        Path state = Files.createDirectories(dir.resolve("state"));
        List<ClusterState.ClusterProcess> processes = new ArrayList<>();
        for (long pid : cluster.pids()) {
            processes.add(ClusterState.ClusterProcess.of(ProcessHandle.of(pid).orElseThrow()));
        }
        ClusterState recorded = new ClusterState(
                ClusterState.ClusterProcess.of(ProcessHandle.current()),
                cluster.masterUrl(),
                0,
                cluster.workers(),
                null,
                cluster.secretFile().toString(),
                cluster.workDirectory().toString(),
                processes);
        Files.writeString(state.resolve("cluster.json"), Json.MAPPER.writeValueAsString(recorded));
        environment = Map.of(ClusterStateDirectory.ENVIRONMENT, state.toString());
    }

    private static Process expand(LocalCluster cluster, Path output, Path log, String... more) throws IOException {
        List<String> arguments = new ArrayList<>(List.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                SHAPE,
                "--partitions",
                Integer.toString(PARTITIONS),
                "--output",
                output.toString(),
                "--master",
                cluster.masterUrl(),
                "--conf",
                "spark.executor.memory=512m"));
        arguments.addAll(List.of(more));
        return CliProcess.start(environment, log, arguments.toArray(String[]::new));
    }

    @Test
    void aKilledDriverLeavesAnIncompleteDatasetThatOverwriteReplacesWithTheFullOne(ProcessCluster cluster)
            throws Exception {
        Path output = dir.resolve("out");
        Path log = dir.resolve("killed.log");
        long start = System.nanoTime();
        // each task sleeps a second before it writes: 24 tasks on two one-core executors take about 12 s
        Process driver = expand(cluster, output, log, "--conf", "spark.tensorbroadcast.test.taskDelayMillis=1000");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (committedTasks(output) < 2 && driver.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(driver.isAlive()).as(CliProcess.read(log)).isTrue();
        assertThat(committedTasks(output)).as(CliProcess.read(log)).isBetween(2, PARTITIONS - 2);
        driver.toHandle().destroyForcibly();
        assertThat(driver.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(driver.exitValue()).isEqualTo(128 + 9);
        // the executors lose their driver and exit; only then is nothing more written
        deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!ClusterRuns.executors(cluster).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertThat(ClusterRuns.executors(cluster)).isEmpty();
        double killedAfter = (System.nanoTime() - start) / 1e9;

        // the dead driver's lock stays, naming it; the rerun below takes it over, as its process is gone
        assertThat(ClusterRuns.entries(output)).containsExactlyInAnyOrder("_temporary", OutputLock.FILE_NAME);
        List<String> files = files(output).stream()
                .filter(file -> !file.equals(OutputLock.FILE_NAME))
                .toList();
        assertThat(files).isNotEmpty().allMatch(file -> LEFTOVER.matcher(file).matches(), "is an attempt's file");
        assertThat(files.stream().filter(file -> file.contains("/task_"))).hasSizeBetween(2, PARTITIONS - 1);

        CliRun inspect = CliRun.of("inspect", output.toString());
        assertThat(inspect.exitCode()).as(inspect.err()).isEqualTo(ExitCode.DATASET_PROBLEMS);
        assertThat(inspect.out())
                .isEqualTo("dataset       " + output + "\n"
                        + "complete      no: no " + Manifest.FILE_NAME + "; no " + Manifest.SUCCESS_FILE_NAME + "; "
                        + OutputLock.FILE_NAME
                        + " is there: a job is writing the dataset, or was stopped before it finished\n"
                        + "stray         _temporary/\n");
        CliRun verify = CliRun.of("verify", output.toString(), "--source", source.toString());
        assertThat(verify.exitCode()).as(verify.err()).isEqualTo(ExitCode.DATASET_PROBLEMS);
        assertThat(verify.out())
                .isEqualTo("no _manifest.json: the dataset is incomplete, so nothing can be checked\n" + "FAILED: "
                        + output + ": 1 problem\n");

        Path again = dir.resolve("again.log");
        long rerun = System.nanoTime();
        Process overwrite = expand(cluster, output, again, "--overwrite");
        assertThat(overwrite.waitFor(180, TimeUnit.SECONDS))
                .as(CliProcess.read(again))
                .isTrue();
        assertThat(overwrite.exitValue()).as(CliProcess.read(again)).isEqualTo(0);
        double rerunSeconds = (System.nanoTime() - rerun) / 1e9;

        CliRun verified = CliRun.of("verify", output.toString(), "--source", source.toString());
        assertThat(verified.exitCode()).as(verified.out()).isEqualTo(0);
        assertThat(verified.out())
                .startsWith("OK: " + output + ": " + PARTITIONS + " files, ")
                .contains(" values match the source");
        ClusterRuns.assertSameFiles(output, reference);
        List<String> expected = new ArrayList<>(ClusterRuns.entries(reference));
        assertThat(ClusterRuns.entries(output)).isEqualTo(expected).hasSize(PARTITIONS + 2);
        // the drivers read the secret from the recorded state, not from their arguments; none of their output has it
        String secret = cluster.sparkConf().get("spark.authenticate.secret");
        assertThat(secret).hasSizeGreaterThanOrEqualTo(32);
        assertThat(CliProcess.read(log) + CliProcess.read(again)).doesNotContain(secret);
        System.out.printf(
                "driver killed after %.1f s with %d attempt files left; --overwrite rerun %.1f s%n",
                killedAfter, files.size(), rerunSeconds);
    }

    /**
     * SIGTERM (as Ctrl-C, which a JVM started in the background may ignore) to a driver whose tasks run on the
     * cluster's executors: the signal's handler cancels the tasks and waits
     * for them before the JVM's shutdown stops the context (which takes the executors down under running tasks),
     * so the job's abort comes after the last task: exit 143, the interrupted line, and nothing left at the output,
     * also once the executors are gone. Before, a task still writing when the context stopped could leave its
     * attempt file after the abort (the fault soak's seeds -3213511599592945349 and 8023967219885940029).
     */
    @Test
    void aSignalledDriverStopsItsTasksBeforeItsAbortAndLeavesNothing(ProcessCluster cluster) throws Exception {
        Path output = dir.resolve("signalled");
        Path log = dir.resolve("signalled.log");
        Process driver = expand(cluster, output, log, "--conf", "spark.tensorbroadcast.test.taskDelayMillis=1000");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (committedTasks(output) < 2 && driver.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(driver.isAlive()).as(CliProcess.read(log)).isTrue();
        assertThat(committedTasks(output)).as(CliProcess.read(log)).isBetween(2, PARTITIONS - 2);
        long signalled = System.nanoTime();
        new ProcessBuilder("kill", "-TERM", Long.toString(driver.pid())).start().waitFor(10, TimeUnit.SECONDS);
        assertThat(driver.waitFor(60, TimeUnit.SECONDS))
                .as(CliProcess.read(log))
                .isTrue();
        double stoppedAfter = (System.nanoTime() - signalled) / 1e9;
        String printed = CliProcess.read(log);
        assertThat(driver.exitValue()).as(printed).isEqualTo(143);
        assertThat(printed.lines().filter(line -> !line.startsWith("writing ") && !line.startsWith("partitions ")))
                .as(printed)
                .containsExactly("interrupted: the job was stopped before it committed; nothing it has written reads"
                        + " as a dataset, and a rerun with --overwrite replaces what is there");
        deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!ClusterRuns.executors(cluster).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertThat(ClusterRuns.executors(cluster)).isEmpty();

        // the lock went, and the directory the run made with it, as nothing was left in it
        assertThat(output).doesNotExist();
        System.out.printf("driver signalled: exit %.1f s after the signal%n", stoppedAfter);
    }

    /** Tasks the committer has committed: their attempt directories renamed to {@code _temporary/0/task_*}. */
    private static int committedTasks(Path output) throws IOException {
        Path job = output.resolve("_temporary/0");
        if (!Files.isDirectory(job)) {
            return 0;
        }
        try (Stream<Path> entries = Files.list(job)) {
            return (int) entries.filter(entry -> entry.getFileName().toString().startsWith("task_"))
                    .count();
        } catch (java.nio.file.NoSuchFileException gone) {
            return 0;
        }
    }

    /** Every regular file under {@code output}, relative to it. */
    private static List<String> files(Path output) throws IOException {
        try (Stream<Path> walk = Files.walk(output)) {
            return walk.filter(Files::isRegularFile)
                    .map(file -> output.relativize(file).toString())
                    .sorted()
                    .toList();
        }
    }
}
