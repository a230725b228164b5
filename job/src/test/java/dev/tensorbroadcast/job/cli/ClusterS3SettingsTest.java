package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.localcluster.ClusterState;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@code cluster start --s3} and {@code cluster status} print of the S3 server: settings that run as typed. */
class ClusterS3SettingsTest {
    private static final ClusterState.S3 S3 =
            new ClusterState.S3("http://127.0.0.1:9000", "tensor-broadcast", "tb-1", "/state/run-1/s3/secret-key");

    @Test
    void theSettingsPointS3AAtTheServerAndReadTheSecretFromItsFile() {
        assertThat(ClusterStartCommand.s3Settings(S3))
                .containsExactly(
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

        assertThat(text.toString().lines().toList())
                .startsWith(
                        "s3 endpoint: http://127.0.0.1:9000",
                        "s3 bucket:   s3a://tensor-broadcast/",
                        "s3 settings: (secret key in /state/run-1/s3/secret-key)",
                        "    --conf spark.hadoop.fs.s3a.endpoint=http://127.0.0.1:9000 \\")
                .contains("    --conf spark.hadoop.fs.s3a.secret.key=$(cat /state/run-1/s3/secret-key)");
    }

    /**
     * After the --conf lines: that our commands need none of them for the bucket, and ready lines for the AWS CLI,
     * boto3 and pyarrow, with the checksum settings S3Proxy needs (it answers the SDKs' checksums with 501).
     */
    @Test
    void theLinesSayOurCommandsNeedNoConfAndGiveOtherToolsTheirs() {
        StringWriter text = new StringWriter();
        ClusterStartCommand.printS3(new PrintWriter(text, true), S3);

        List<String> lines = text.toString().lines().toList();
        int last = lines.indexOf("    --conf spark.hadoop.fs.s3a.secret.key=$(cat /state/run-1/s3/secret-key)");
        assertThat(lines.subList(last + 1, lines.size()))
                .containsExactly(
                        "s3 commands: tensor-broadcast's own need none of these for s3a://tensor-broadcast/ while this cluster"
                                + " runs (a --conf given still wins)",
                        "s3 for other tools (the checksum settings because S3Proxy answers the SDKs' checksums with 501):",
                        "    export AWS_ENDPOINT_URL=http://127.0.0.1:9000 AWS_ACCESS_KEY_ID=tb-1"
                                + " AWS_SECRET_ACCESS_KEY=$(cat /state/run-1/s3/secret-key) AWS_REGION=us-east-1"
                                + " AWS_REQUEST_CHECKSUM_CALCULATION=when_required"
                                + " AWS_RESPONSE_CHECKSUM_VALIDATION=when_required",
                        "    aws s3 ls s3://tensor-broadcast/",
                        "    python3 -c \"import boto3; print(boto3.client('s3').list_objects_v2(Bucket='tensor-broadcast')"
                                + ".get('KeyCount'))\"",
                        "    python3 -c \"import pyarrow.fs as fs; s3, path = fs.FileSystem.from_uri('s3://tensor-broadcast/');"
                                + " print(s3.get_file_info(fs.FileSelector(path)))\"");
    }
}
