package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.pipeline.NpyFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A master Spark cannot start on is a refused request: one line, exit 2, nothing written. */
class BadMasterTest {
    @TempDir
    Path dir;

    @Test
    void refusesAMasterSparkCannotParse() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 8});
        Path output = dir.resolve("out");
        CliRun run = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "4,8",
                "--output",
                output.toString(),
                "--master",
                "foo");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err().lines().filter(line -> line.startsWith("Cannot")))
                .containsExactly("Cannot start Spark on master 'foo': Could not parse Master URL: 'foo'; give local[N],"
                        + " spark://host:port, local-cluster, yarn or k8s://...");
        assertThat(run.err()).doesNotContain("\tat ");
        assertThat(Files.exists(output)).isFalse();
    }

    @Test
    void aMasterThatCannotBeReachedIsSaidAtOnce() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 8});
        Path output = dir.resolve("out");
        int closedPort;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        CliRun closed = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "4,8",
                "--output",
                output.toString(),
                "--master",
                "spark://127.0.0.1:" + closedPort);
        CliRun unknown = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "4,8",
                "--output",
                output.toString(),
                "--master",
                "spark://nowhere.invalid:7077");

        assertThat(closed.exitCode()).isEqualTo(2);
        assertThat(closed.err())
                .startsWith("Cannot start Spark on master 'spark://127.0.0.1:" + closedPort
                        + "': nothing answers on 127.0.0.1:" + closedPort + " (")
                .contains("Connection refused")
                .endsWith("); start the master, or give local[N], local-cluster, yarn or k8s://...\n");
        assertThat(unknown.err())
                .isEqualTo("Cannot start Spark on master 'spark://nowhere.invalid:7077': host"
                        + " 'nowhere.invalid' does not resolve; start the master, or give local[N], local-cluster, yarn or"
                        + " k8s://...\n");
        // the reason, not the registration timeout's guess at authentication
        assertThat(closed.err() + unknown.err()).doesNotContain("authentication");
        assertThat(Files.exists(output)).isFalse();
    }
}
