package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.localcluster.ClusterState;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** What {@code cluster start --s3} and {@code cluster status} print of the S3 server: settings that run as typed. */
class ClusterS3SettingsTest {
    private static final ClusterState.S3 S3 = new ClusterState.S3("http://127.0.0.1:9000", "tensor-broadcast",
            "tb-1", "/state/run-1/s3/secret-key");

    @Test
    void theSettingsPointS3AAtTheServerAndReadTheSecretFromItsFile() {
        assertThat(ClusterStartCommand.s3Settings(S3)).containsExactly(
                "spark.hadoop.fs.s3a.endpoint=http://127.0.0.1:9000",
                "spark.hadoop.fs.s3a.endpoint.region=us-east-1",
                "spark.hadoop.fs.s3a.path.style.access=true",
                "spark.hadoop.fs.s3a.connection.ssl.enabled=false",
                "spark.hadoop.fs.s3a.multiobjectdelete.enable=false",
                "spark.hadoop.fs.s3a.access.key=tb-1",
                "spark.hadoop.fs.s3a.secret.key=$(cat /state/run-1/s3/secret-key)");
    }

    @Test
    void theLinesNameEndpointBucketAndOneConfPerLine() {
        StringWriter text = new StringWriter();
        ClusterStartCommand.printS3(new PrintWriter(text, true), S3);

        assertThat(text.toString().lines().toList()).startsWith("s3 endpoint: http://127.0.0.1:9000",
                "s3 bucket:   s3a://tensor-broadcast/",
                "s3 settings: (secret key in /state/run-1/s3/secret-key)",
                "    --conf spark.hadoop.fs.s3a.endpoint=http://127.0.0.1:9000 \\")
                .endsWith("    --conf spark.hadoop.fs.s3a.secret.key=$(cat /state/run-1/s3/secret-key)");
    }
}
