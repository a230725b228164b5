package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.localcluster.ClusterStateDirectory;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --master local-cluster} with no cluster running: refused before anything is written. */
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
        Path source = dev.tensorbroadcast.job.spark.NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 4});
        CliRun expand = CliRun.of("expand", "--input", source.toString(), "--dialect", "numpy", "--shape", "2,4",
                "--output", dir.resolve("out").toString(), "--master", "local-cluster");
        assertThat(expand.exitCode()).isEqualTo(2);
        assertThat(expand.err().lines().filter(line -> line.startsWith("Cannot"))).containsExactly(
                "Cannot run on the local cluster: none is running (nothing running is recorded in " + dir
                        + "); start one with 'tensor-broadcast cluster start'");
        assertThat(dir.resolve("out")).doesNotExist();
    }
}
