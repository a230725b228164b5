package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.spark.NpyFiles;
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
        CliRun run = CliRun.of("expand", "--input", source.toString(), "--dialect", "numpy", "--shape", "4,8",
                "--output", output.toString(), "--master", "foo");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err().lines().filter(line -> line.startsWith("Cannot"))).containsExactly(
                "Cannot start Spark on master 'foo': Could not parse Master URL: 'foo'; give local[N],"
                        + " spark://host:port, local-cluster, yarn or k8s://...");
        assertThat(run.err()).doesNotContain("\tat ");
        assertThat(Files.exists(output)).isFalse();
    }
}
