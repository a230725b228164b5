package dev.tensorbroadcast.localcluster.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.localcluster.LocalClusterException;
import dev.tensorbroadcast.localcluster.SparkHome;
import dev.tensorbroadcast.localcluster.junit.WithS3Server;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@WithS3Server
class S3ServerTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void answersAsAnS3ServerThatRefusesUnsignedRequests(S3Server server) throws Exception {
        HttpResponse<String> listing = HTTP.send(
                HttpRequest.newBuilder(URI.create(server.endpoint() + "/" + server.bucket()))
                        .build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(server.endpoint().toString()).startsWith("http://127.0.0.1:");
        assertThat(listing.statusCode()).isEqualTo(403);
        assertThat(listing.body()).contains("<Code>AccessDenied</Code>");
        assertThat(server.bucketDirectory()).isDirectory();
        assertThat(server.uri("/day=1/")).isEqualTo("s3a://tensor-broadcast/day=1/");
    }

    @Test
    void settingsNameTheEndpointAndKeysWhichOnlyAPrivateFileHolds(S3Server server) throws Exception {
        Path settings = server.bucketDirectory().getParent().resolveSibling("s3proxy.properties");

        assertThat(server.sparkSettings())
                .containsEntry("spark.hadoop.fs.s3a.endpoint", server.endpoint().toString())
                .containsEntry("spark.hadoop.fs.s3a.path.style.access", "true")
                .containsEntry("spark.hadoop.fs.s3a.access.key", server.accessKey())
                .containsEntry("spark.hadoop.fs.s3a.secret.key", server.secretKey());
        assertThat(server.secretKey()).hasSize(40);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(settings)))
                .isEqualTo("rw-------");
        assertThat(Files.readString(server.log())).doesNotContain(server.secretKey());
    }

    @Test
    void closeStopsTheProcessAndEachServerHasItsOwnSecret(S3Server running, @TempDir Path directory) {
        S3Server server = S3Server.start(SparkHome.locate(), directory);
        long pid = server.pid();
        assertThat(server.secretKey()).isNotEqualTo(running.secretKey());
        assertThat(server.endpoint()).isNotEqualTo(running.endpoint());

        server.close();

        assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
        assertThat(server.exited()).get(InstanceOfAssertFactories.STRING).contains("pid " + pid, "s3proxy.log");
    }

    @Test
    void aJarThatDoesNotRunIsOneErrorNamingTheLog(@TempDir Path directory) {
        assertThatThrownBy(() -> S3Server.start(directory.resolve("missing.jar"), directory))
                .isInstanceOf(LocalClusterException.class)
                .hasMessageStartingWith("Cannot start the S3 server: the S3 server (pid ")
                .hasMessageEndingWith("exited; its log is " + directory.resolve("s3proxy.log"));
    }
}
