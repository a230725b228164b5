package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.localcluster.ClusterStateDirectory;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cluster start --s3 --s3-data DIR} as a user runs it: a dataset written to the bucket with no settings is in
 * DIR after {@code cluster stop}, which says so, and a cluster started again on DIR serves it.
 */
class ClusterS3DataIT {
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

    /** Starts the cluster on {@code data} and waits for its ready line; returns what it printed. */
    private static String start(Map<String, String> environment, Path data, String name) throws Exception {
        Path log = dir.resolve(name + ".log");
        starter = CliProcess.start(
                environment,
                log,
                "cluster",
                "start",
                "--workers",
                "1",
                "--worker-memory",
                "1g",
                "--s3",
                "--s3-data",
                data.toString());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (System.nanoTime() < deadline
                && starter.isAlive()
                && !CliProcess.read(log).contains("run a job with")) {
            Thread.sleep(200);
        }
        String printed = CliProcess.read(log);
        assertThat(printed).as("cluster start's output").contains("run a job with");
        return printed;
    }

    @Test
    void theBucketsObjectsOutliveTheClusterAndAreServedAgain() throws Exception {
        Path state = dir.resolve("state");
        System.setProperty(ClusterStateDirectory.PROPERTY, state.toString());
        Map<String, String> environment = Map.of(ClusterStateDirectory.ENVIRONMENT, state.toString());
        Path data = dir.resolve("s3-data");

        String first = start(environment, data, "start-1");
        assertThat(first)
                .contains("s3 data:     " + data.resolve("tensor-broadcast") + " (kept when the cluster"
                        + " stops; --s3-data " + data + " serves it again)");
        Path source = NpyFiles.int32(dir.resolve("rows.npy"), new long[] {2, 1, 16});
        CliRun expand = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "2,8,16",
                "--output",
                "s3a://tensor-broadcast/kept");
        assertThat(expand.exitCode()).as(expand.err()).isZero();
        CliRun stop = CliRun.of("cluster", "stop");
        assertThat(stop.exitCode()).as(stop.err()).isZero();
        assertThat(stop.out())
                .contains("kept the objects of its S3 server's bucket s3a://tensor-broadcast/ in "
                        + data.resolve("tensor-broadcast") + " (--s3-data " + data + " serves them again)");
        assertThat(starter.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(data.resolve("tensor-broadcast").resolve("kept").resolve("_manifest.json"))
                .exists();

        start(environment, data, "start-2");
        CliRun inspect = CliRun.of("inspect", "s3a://tensor-broadcast/kept", "--json");
        assertThat(inspect.exitCode()).as(inspect.err()).isZero();
        assertThat(inspect.json().get("rows").asLong()).isEqualTo(2);
        CliRun again = CliRun.of("cluster", "stop");
        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(starter.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(data.resolve("tensor-broadcast").resolve("kept").resolve("_manifest.json"))
                .exists();
    }
}
