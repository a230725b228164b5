package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.localcluster.ClusterState;
import dev.tensorbroadcast.localcluster.ClusterStateDirectory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cluster start --s3} as a user runs it: a process of its own; the S3 settings it prints, pasted into a shell
 * after an {@code expand --master local-cluster} to {@code s3a://} (the secret key read from its file by the shell,
 * as printed); then {@code inspect} with the same settings and {@code cluster stop}, which leaves no process.
 */
class ClusterS3CommandIT {
    @TempDir
    static Path dir;

    private static Process starter;

    @AfterAll
    static void stopWhateverIsLeft() {
        System.clearProperty(ClusterStateDirectory.PROPERTY);
        if (starter != null && starter.isAlive()) {
            starter.descendants().forEach(ProcessHandle::destroyForcibly);
            starter.destroyForcibly();
        }
    }

    /** The command line with {@code arguments}, then the printed settings as they were printed, through a shell. */
    private static Process inAShell(Map<String, String> environment, Path log, String settings, String... arguments)
            throws Exception {
        String command = CliProcess.command(arguments).stream()
                .map(ClusterS3CommandIT::quoted)
                .collect(Collectors.joining(" "));
        ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", command + " \\\n" + settings)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        return builder.start();
    }

    private static String quoted(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    @Test
    void theSettingsItPrintsRunAnExpandToS3OnTheClusterAndStopStopsTheServerToo() throws Exception {
        Path state = dir.resolve("state");
        System.setProperty(ClusterStateDirectory.PROPERTY, state.toString());
        Map<String, String> environment = Map.of(ClusterStateDirectory.ENVIRONMENT, state.toString());
        Path startLog = dir.resolve("start.log");
        starter = CliProcess.start(
                environment, startLog, "cluster", "start", "--workers", "1", "--worker-memory", "1g", "--s3");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline
                && starter.isAlive()
                && !CliProcess.read(startLog).contains("run a job with")) {
            Thread.sleep(200);
        }
        String printed = CliProcess.read(startLog);
        assertThat(printed)
                .as("cluster start's output")
                .contains("s3 settings:")
                .contains("run a job with");
        String bucket = printed.lines()
                .filter(line -> line.startsWith("s3 bucket:"))
                .findFirst()
                .orElseThrow()
                .substring("s3 bucket:".length())
                .strip();
        String settings =
                printed.lines().filter(line -> line.startsWith("    --conf ")).collect(Collectors.joining("\n"));
        assertThat(bucket).isEqualTo("s3a://tensor-broadcast/");
        assertThat(settings).contains("spark.hadoop.fs.s3a.secret.key=$(cat ");

        Path source = NpyFiles.int32(dir.resolve("rows.npy"), new long[] {2, 1, 16});
        String output = bucket + "from-the-cli";
        Path expandLog = dir.resolve("expand.log");
        Process expand = inAShell(
                environment,
                expandLog,
                settings,
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
                output,
                "--master",
                "local-cluster");
        assertThat(expand.waitFor(180, TimeUnit.SECONDS))
                .as(CliProcess.read(expandLog))
                .isTrue();
        assertThat(expand.exitValue()).as(CliProcess.read(expandLog)).isZero();
        assertThat(CliProcess.read(expandLog)).contains("wrote ");
        Path inspectLog = dir.resolve("inspect.log");
        Process inspect = inAShell(environment, inspectLog, settings, "inspect", output, "--json");
        assertThat(inspect.waitFor(120, TimeUnit.SECONDS))
                .as(CliProcess.read(inspectLog))
                .isTrue();
        assertThat(inspect.exitValue()).as(CliProcess.read(inspectLog)).isZero();
        assertThat(CliProcess.read(inspectLog)).contains("\"rows\"");

        // while the cluster runs, its bucket needs none of the settings: on the cluster's executors, and here
        String plain = bucket + "no-conf";
        Path plainLog = dir.resolve("no-conf.log");
        Process noConf = CliProcess.start(
                environment,
                plainLog,
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
                plain,
                "--master",
                "local-cluster");
        assertThat(noConf.waitFor(180, TimeUnit.SECONDS))
                .as(CliProcess.read(plainLog))
                .isTrue();
        assertThat(noConf.exitValue()).as(CliProcess.read(plainLog)).isZero();
        CliRun inspectPlain = CliRun.of("inspect", plain, "--json");
        assertThat(inspectPlain.exitCode()).as(inspectPlain.err()).isZero();
        assertThat(inspectPlain.json().get("rows").asLong()).isEqualTo(2);

        ClusterState recorded = ClusterStateDirectory.locate().read().orElseThrow();
        List<ProcessHandle> processes = new ArrayList<>();
        for (ClusterState.ClusterProcess process : recorded.processes()) {
            processes.add(process.live().orElseThrow());
        }
        // the master, the worker and the S3 server
        assertThat(processes).hasSize(3);
        CliRun stop = CliRun.of("cluster", "stop");
        assertThat(stop.exitCode()).as(stop.err()).isZero();
        assertThat(starter.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(processes).noneMatch(ProcessHandle::isAlive);
    }
}
