package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.localcluster.ClusterStateDirectory;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** No local cluster running: {@code --master local-cluster} is refused before anything is written; status says so. */
class LocalClusterMasterTest {
    @TempDir
    Path dir;

    @AfterEach
    void forget() {
        System.clearProperty(ClusterStateDirectory.PROPERTY);
    }

    @Test
    void withNoClusterRecordedLocalClusterIsRefused() throws Exception {
        System.setProperty(ClusterStateDirectory.PROPERTY, dir.toString());
        Path source = dev.tensorbroadcast.job.pipeline.NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 4});
        CliRun expand = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "2,4",
                "--output",
                dir.resolve("out").toString(),
                "--master",
                "local-cluster");
        assertThat(expand.exitCode()).isEqualTo(2);
        assertThat(expand.err().lines().filter(line -> line.startsWith("Cannot")))
                .containsExactly("Cannot run on the local cluster: none is running (nothing running is recorded in "
                        + dir + "); start one with 'tensor-broadcast cluster start'");
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void statusAndStopSayNoClusterRunsInJsonToo() {
        System.setProperty(ClusterStateDirectory.PROPERTY, dir.toString());
        CliRun status = CliRun.of("cluster", "status", "--json");
        assertThat(status.exitCode()).isEqualTo(3);
        assertThat(status.out().strip()).isEqualTo("{\"running\":false}");
        CliRun text = CliRun.of("cluster", "status");
        assertThat(text.out().strip()).isEqualTo("no local cluster is running");

        CliRun stop = CliRun.of("cluster", "stop", "--json");
        assertThat(stop.exitCode()).isZero();
        assertThat(stop.out().strip()).isEqualTo("{\"stopped\":false}");
        assertThat(stop.err()).isEmpty();
    }
}
