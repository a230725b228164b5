package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.localcluster.ClusterState;
import dev.tensorbroadcast.localcluster.ClusterStateDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --s3-data}: refused before anything starts where it cannot work; {@code cluster stop} says where the objects
 * stayed, or that they went with the cluster (a recorded cluster whose processes are gone, so stop has only to say).
 */
class ClusterS3DataTest {
    @TempDir
    Path dir;

    @BeforeEach
    void ownState() {
        System.setProperty(ClusterStateDirectory.PROPERTY, dir.resolve("state").toString());
    }

    @AfterEach
    void forgetIt() {
        System.clearProperty(ClusterStateDirectory.PROPERTY);
    }

    @Test
    void withoutS3OrOnAFileItIsRefusedAndNothingStarts() throws Exception {
        Path file = Files.writeString(dir.resolve("a-file"), "x");

        CliRun noS3 =
                CliRun.of("cluster", "start", "--s3-data", dir.resolve("data").toString());
        CliRun onAFile = CliRun.of("cluster", "start", "--s3", "--s3-data", file.toString());

        assertThat(noS3.exitCode()).isEqualTo(2);
        assertThat(noS3.err())
                .isEqualTo("Cannot keep S3 objects in '" + dir.resolve("data") + "': --s3-data is for"
                        + " the S3 server of --s3; give --s3 too\n");
        assertThat(onAFile.exitCode()).isEqualTo(2);
        assertThat(onAFile.err())
                .isEqualTo("Cannot keep S3 objects in '" + file + "': it is a file; give a"
                        + " directory (it is created if missing)\n");
        assertThat(dir.resolve("data")).doesNotExist();
        assertThat(dir.resolve("state")).doesNotExist();
    }

    private CliRun stopRecorded(String dataDirectory) {
        // pid 1 with another start time: a process that is not this cluster's, so nothing is signalled
        ClusterState.ClusterProcess gone = new ClusterState.ClusterProcess(1, "1970-01-01T00:00:00Z");
        ClusterStateDirectory states = ClusterStateDirectory.locate();
        states.create();
        states.write(new ClusterState(
                gone,
                "spark://127.0.0.1:7077",
                8080,
                1,
                null,
                dir.resolve("cluster.properties").toString(),
                dir.toString(),
                List.of(),
                new ClusterState.S3(
                        "http://127.0.0.1:9000",
                        "tensor-broadcast",
                        "tb-1",
                        dir.resolve("secret-key").toString(),
                        dataDirectory),
                null));
        return CliRun.of("cluster", "stop");
    }

    @Test
    void stopSaysTheObjectsStayedInTheDirectoryGiven() {
        CliRun stop = stopRecorded("/data/s3");

        assertThat(stop.exitCode()).as(stop.err()).isZero();
        assertThat(stop.out().lines().toList())
                .containsExactly(
                        "stopped the local cluster at spark://127.0.0.1:7077",
                        "kept the objects of its S3 server's bucket s3a://tensor-broadcast/ in /data/s3/tensor-broadcast"
                                + " (--s3-data /data/s3 serves them again)");
    }

    @Test
    void withoutItStopSaysTheyWentWithTheCluster() {
        CliRun stop = stopRecorded(null);

        assertThat(stop.exitCode()).as(stop.err()).isZero();
        assertThat(stop.out().lines().toList())
                .containsExactly(
                        "stopped the local cluster at spark://127.0.0.1:7077",
                        "deleted the objects of its S3 server's bucket s3a://tensor-broadcast/ with the cluster's directory");
    }
}
