package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.localcluster.ClusterState;
import dev.tensorbroadcast.localcluster.ClusterStateDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The running local cluster's S3 server reaches the commands without --conf: its settings for its bucket alone, read
 * from the state 'cluster start --s3' records (here one whose owner is this JVM, so it reads as running), under any
 * --conf for the same option.
 */
class LocalS3SettingsTest {
    @TempDir
    Path dir;

    private Path secret;

    @BeforeEach
    void recordARunningClusterWithS3() throws Exception {
        System.setProperty(ClusterStateDirectory.PROPERTY, dir.resolve("state").toString());
        secret = Files.writeString(dir.resolve("secret-key"), "s3cr3t\n");
        ClusterState state = new ClusterState(
                ClusterState.ClusterProcess.of(ProcessHandle.current()),
                "spark://127.0.0.1:7077",
                8080,
                1,
                null,
                dir.resolve("cluster.properties").toString(),
                dir.toString(),
                List.of(),
                new ClusterState.S3("http://127.0.0.1:9000", "tensor-broadcast", "tb-1", secret.toString()),
                null);
        ClusterStateDirectory states = ClusterStateDirectory.locate();
        states.create();
        states.write(state);
    }

    @AfterEach
    void forgetIt() {
        System.clearProperty(ClusterStateDirectory.PROPERTY);
    }

    @Test
    void itsBucketGetsTheServersSettingsWithNoConf() {
        Configuration conf = HadoopSettings.configuration(Map.of());

        assertThat(conf.get("fs.s3a.bucket.tensor-broadcast.endpoint")).isEqualTo("http://127.0.0.1:9000");
        assertThat(conf.get("fs.s3a.bucket.tensor-broadcast.path.style.access")).isEqualTo("true");
        assertThat(conf.get("fs.s3a.bucket.tensor-broadcast.access.key")).isEqualTo("tb-1");
        assertThat(conf.get("fs.s3a.bucket.tensor-broadcast.secret.key")).isEqualTo("s3cr3t");
        // other buckets keep S3A's own chain: nothing is set for every bucket
        assertThat(conf.get("fs.s3a.endpoint")).isNotEqualTo("http://127.0.0.1:9000");
        assertThat(conf.get("fs.s3a.access.key")).isNull();
    }

    @Test
    void aConfForTheSameOptionWins() {
        Map<String, String> merged = LocalS3Settings.under(Map.of(
                "spark.hadoop.fs.s3a.endpoint",
                "https://s3.example.com",
                "spark.hadoop.fs.s3a.bucket.tensor-broadcast.access.key",
                "mine"));

        assertThat(merged)
                .doesNotContainKey("spark.hadoop.fs.s3a.bucket.tensor-broadcast.endpoint")
                .containsEntry("spark.hadoop.fs.s3a.endpoint", "https://s3.example.com")
                .containsEntry("spark.hadoop.fs.s3a.bucket.tensor-broadcast.access.key", "mine")
                .containsEntry("spark.hadoop.fs.s3a.bucket.tensor-broadcast.secret.key", "s3cr3t");
    }

    @Test
    void noRunningClusterAddsNothing() {
        ClusterStateDirectory.locate().clear(ProcessHandle.current().pid());
        Map<String, String> conf = Map.of("spark.speculation", "true");

        assertThat(LocalS3Settings.under(conf)).isSameAs(conf);
    }
}
