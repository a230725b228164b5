package dev.tensorbroadcast.localcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterStateDirectoryTest {
    @TempDir
    Path dir;

    @AfterEach
    void forget() {
        System.clearProperty(ClusterStateDirectory.PROPERTY);
    }

    @Test
    void recordsReadsAndClearsACluster() throws Exception {
        System.setProperty(ClusterStateDirectory.PROPERTY, dir.resolve("state").toString());
        ClusterStateDirectory states = ClusterStateDirectory.locate();
        assertThat(states.read()).isEmpty();
        states.create();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(states.path())))
                .isEqualTo("rwx------");
        ClusterState.ClusterProcess self = ClusterState.ClusterProcess.of(ProcessHandle.current());
        ClusterState state = new ClusterState(
                self,
                "spark://127.0.0.1:7077",
                8080,
                2,
                "hdfs://127.0.0.1:9000",
                "/tmp/secret.properties",
                "/tmp/run",
                List.of(self));
        states.write(state);
        assertThat(states.read()).contains(state);
        assertThat(state.owner().live()).contains(ProcessHandle.current());

        states.clear(self.pid() + 1);
        assertThat(states.read()).contains(state);
        states.clear(self.pid());
        assertThat(states.read()).isEmpty();
    }

    /** The S3 server beside a cluster is recorded by where it is and its secret key's file, never the key. */
    @Test
    void recordsTheS3ServerWithoutItsSecret() throws Exception {
        System.setProperty(
                ClusterStateDirectory.PROPERTY, dir.resolve("state-s3").toString());
        ClusterStateDirectory states = ClusterStateDirectory.locate();
        states.create();
        ClusterState.ClusterProcess self = ClusterState.ClusterProcess.of(ProcessHandle.current());
        ClusterState state = new ClusterState(
                self,
                "spark://127.0.0.1:7077",
                8080,
                2,
                null,
                "/tmp/secret.properties",
                "/tmp/run",
                List.of(self),
                new ClusterState.S3("http://127.0.0.1:9000", "tensor-broadcast", "tb-1", "/tmp/run/s3/secret-key"),
                null);

        states.write(state);

        assertThat(states.read()).contains(state);
        assertThat(states.read().orElseThrow().s3())
                .map(ClusterState.S3::secretKeyFile)
                .contains("/tmp/run/s3/secret-key");
        assertThat(Files.readString(states.path().resolve("cluster.json")))
                .contains("\"secret_key_file\"")
                .doesNotContain("\"secret_key\"");
    }

    @Test
    void aReusedPidIsNotTheRecordedProcess() {
        ClusterState.ClusterProcess stranger =
                new ClusterState.ClusterProcess(ProcessHandle.current().pid(), "2001-01-01T00:00:00Z");
        assertThat(stranger.live()).isEmpty();
    }

    @Test
    void aStateFileThatIsNotOneIsOneLineSayingWhatToDo() throws Exception {
        System.setProperty(ClusterStateDirectory.PROPERTY, dir.toString());
        Files.writeString(dir.resolve("cluster.json"), "{\"owner\": 12");
        assertThatThrownBy(() -> ClusterStateDirectory.locate().read())
                .isInstanceOf(ClusterStateException.class)
                .hasMessageStartingWith("Cannot read the local cluster's state '" + dir.resolve("cluster.json") + "': ")
                .hasMessageEndingWith("; stop the cluster with 'tensor-broadcast cluster stop' or delete the file");
    }

    @Test
    void withNoClusterRecordedTheLocalClusterMasterIsRefused() {
        System.setProperty(ClusterStateDirectory.PROPERTY, dir.toString());
        assertThatThrownBy(() -> ClusterMasters.settings(ClusterMasters.LOCAL_CLUSTER))
                .isInstanceOf(ClusterStateException.class)
                .hasMessage("Cannot run on the local cluster: none is running (nothing running is recorded in " + dir
                        + "); start one with 'tensor-broadcast cluster start'");
        // another master's URL is passed through as it is
        assertThat(ClusterMasters.settings("spark://elsewhere:7077"))
                .containsEntry("spark.master", "spark://elsewhere:7077");
    }
}
