package dev.tensorbroadcast.localcluster.s3;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.localcluster.FreePorts;
import dev.tensorbroadcast.localcluster.LocalClusterException;
import dev.tensorbroadcast.localcluster.SparkHome;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A real S3 API server on 127.0.0.1 that honours conditional writes ({@code If-None-Match: *} on PutObject and
 * CompleteMultipartUpload answered with 412 when the key exists), as AWS S3 has since 2024 and S3Proxy does not:
 * Adobe's S3Mock, its executable jar in a JVM of its own. It takes any keys, so it stands for a bucket's
 * semantics, not its access control (that is {@link S3Server}'s part). Its objects live in the directory given.
 */
public final class ConditionalS3Server implements AutoCloseable {
    /**
     * Its one bucket: another name than {@link S3Server#BUCKET}, as S3A keeps one file system per bucket and JVM,
     * made with the settings (the endpoint) of the first caller, so both servers can serve one JVM.
     */
    public static final String BUCKET = "tensor-broadcast-conditional";

    private static final String HEAP = "256m";
    private static final String ACCESS_KEY = "tb-conditional";
    private static final String SECRET_KEY = "unchecked-by-s3mock";
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

    private final ServerProcess process;
    private final URI endpoint;
    private final Path log;

    private ConditionalS3Server(ServerProcess process, URI endpoint, Path log) {
        this.process = requireNonNull(process, "process is null");
        this.endpoint = requireNonNull(endpoint, "endpoint is null");
        this.log = requireNonNull(log, "log is null");
    }

    /** Starts S3Mock from the jar {@code home} holds, with one bucket ({@link #BUCKET}) in {@code directory}. */
    public static ConditionalS3Server start(SparkHome home, Path directory) {
        Path jar = home.s3MockJar()
                .orElseThrow(() -> new LocalClusterException("Cannot start the conditional S3"
                        + " server: the Spark home '" + home.path() + "' has no s3mock directory; use the one the build"
                        + " assembles at local-cluster/target/spark-home"));
        return start(jar, directory);
    }

    /** Starts the S3Mock executable {@code jar} with its objects and log in {@code directory}. */
    public static ConditionalS3Server start(Path jar, Path directory) {
        requireNonNull(jar, "jar is null");
        requireNonNull(directory, "directory is null");
        int port = FreePorts.next();
        Path root = directory.resolve("data");
        Path log = directory.resolve("s3mock.log");
        try {
            Files.createDirectories(root);
        } catch (IOException e) {
            throw new LocalClusterException(
                    "Cannot prepare the conditional S3 server's directory '" + directory + "': " + e.getMessage(), e);
        }
        // C1 and the serial collector: a test server's start is most of its work (a Spring Boot application);
        // its HTTPS port is an ephemeral one on the loopback address, which nothing here uses
        List<String> command = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + HEAP,
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-jar",
                jar.toString(),
                "--com.adobe.testing.s3mock.httpPort=" + port,
                "--server.port=0",
                "--server.address=127.0.0.1",
                "--com.adobe.testing.s3mock.store.initialBuckets=" + BUCKET,
                "--com.adobe.testing.s3mock.store.root=" + root.toAbsolutePath(),
                "--com.adobe.testing.s3mock.store.retainFilesOnExit=true",
                "--spring.main.banner-mode=off");
        ServerProcess process = ServerProcess.start("the conditional S3 server", command, log, port, START_TIMEOUT);
        return new ConditionalS3Server(process, URI.create("http://127.0.0.1:" + port), log);
    }

    /** Where clients reach it, as {@code http://127.0.0.1:port}. */
    public URI endpoint() {
        return endpoint;
    }

    /** {@code s3a://bucket/key}. */
    public String uri(String key) {
        requireNonNull(key, "key is null");
        return "s3a://" + BUCKET + "/" + (key.startsWith("/") ? key.substring(1) : key);
    }

    /** The Hadoop settings S3A needs to reach this server, as {@link S3Server#hadoopSettings()}. */
    public Map<String, String> hadoopSettings() {
        Map<String, String> settings = new LinkedHashMap<>(S3Server.hadoopSettingsWithoutKeys(endpoint));
        settings.put("fs.s3a.access.key", ACCESS_KEY);
        settings.put("fs.s3a.secret.key", SECRET_KEY);
        return settings;
    }

    public Path log() {
        return log;
    }

    /** Stops the server (SIGTERM, then SIGKILL after a grace period); the objects stay on disk. */
    @Override
    public void close() {
        process.stop();
    }
}
