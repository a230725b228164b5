package dev.tensorbroadcast.localcluster.s3;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.localcluster.FreePorts;
import dev.tensorbroadcast.localcluster.LocalClusterException;
import dev.tensorbroadcast.localcluster.SparkHome;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A real S3 API server on 127.0.0.1: S3Proxy with its filesystem backend, in a JVM of its own ({@code java -jar}),
 * so its Jetty, jclouds and Guava stay off every class path of ours. One bucket, one access key and a secret key
 * drawn anew for each server, which only the properties file it is started with holds (mode 600).
 */
public final class S3Server implements AutoCloseable {
    /** The bucket every server starts with. */
    public static final String BUCKET = "tensor-broadcast";

    private static final String SECRET_KEY_FILE = "secret-key";
    private static final String HEAP = "256m";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private static final FileAttribute<Set<PosixFilePermission>> PRIVATE_DIRECTORY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));

    private final ServerProcess process;
    private final URI endpoint;
    private final String accessKey;
    private final String secretKey;
    private final Path directory;
    private final Path data;
    private final Path log;

    private S3Server(
            ServerProcess process,
            URI endpoint,
            String accessKey,
            String secretKey,
            Path directory,
            Path data,
            Path log) {
        this.process = requireNonNull(process, "process is null");
        this.endpoint = requireNonNull(endpoint, "endpoint is null");
        this.accessKey = requireNonNull(accessKey, "accessKey is null");
        this.secretKey = requireNonNull(secretKey, "secretKey is null");
        this.directory = requireNonNull(directory, "directory is null");
        this.data = requireNonNull(data, "data is null");
        this.log = requireNonNull(log, "log is null");
    }

    /** Starts S3Proxy from the jar {@code home} holds, keeping its objects, settings and log in {@code directory}. */
    public static S3Server start(SparkHome home, Path directory) {
        return start(home, directory, false);
    }

    /**
     * As {@link #start(SparkHome, Path)}, the bucket's objects kept in {@code data} instead (created if missing): a
     * directory that outlives the server, whose objects a server started on it again serves.
     */
    public static S3Server start(SparkHome home, Path directory, Path data) {
        return start(jar(home), directory, data.toAbsolutePath(), false);
    }

    /**
     * As {@link #start(SparkHome, Path)}; a {@code readOnly} server serves reads and refuses every write, which is
     * the nearest S3Proxy comes to a bucket whose keys may only read: it refuses with 501 NotImplemented (its
     * read-only middleware's answer) where AWS S3 answers a read-only bucket policy with 403 AccessDenied.
     */
    public static S3Server start(SparkHome home, Path directory, boolean readOnly) {
        return start(jar(home), directory, readOnly);
    }

    private static Path jar(SparkHome home) {
        return home.s3ProxyJar()
                .orElseThrow(() -> new LocalClusterException("Cannot start the S3 server: the"
                        + " Spark home '" + home.path()
                        + "' has no s3proxy directory; use the one the build assembles at"
                        + " local-cluster/target/spark-home"));
    }

    /** Starts the S3Proxy {@code jar} (its jar-with-dependencies) with its state in {@code directory}. */
    public static S3Server start(Path jar, Path directory) {
        return start(jar, directory, false);
    }

    private static S3Server start(Path jar, Path directory, boolean readOnly) {
        return start(jar, directory, directory.resolve("data"), readOnly);
    }

    private static S3Server start(Path jar, Path directory, Path data, boolean readOnly) {
        requireNonNull(jar, "jar is null");
        requireNonNull(directory, "directory is null");
        requireNonNull(data, "data is null");
        int port = FreePorts.next();
        URI endpoint = URI.create("http://127.0.0.1:" + port);
        String accessKey = "tb-" + randomHex(8);
        String secretKey = randomHex(20);
        Path settings = directory.resolve("s3proxy.properties");
        Path log = directory.resolve("s3proxy.log");
        try {
            // the filesystem backend's bucket is a directory under its base directory; S3Proxy serves a bucket or
            // object that others may read to anonymous requests, so nothing here is readable by others
            Files.createDirectories(directory, PRIVATE_DIRECTORY);
            Files.createDirectories(data, PRIVATE_DIRECTORY);
            Files.createDirectories(data.resolve(BUCKET), PRIVATE_DIRECTORY);
            Files.deleteIfExists(settings);
            Files.createFile(
                    settings, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(
                    settings,
                    String.join(
                            "\n",
                            "s3proxy.endpoint=" + endpoint,
                            "s3proxy.authorization=aws-v2-or-v4",
                            "s3proxy.identity=" + accessKey,
                            "s3proxy.credential=" + secretKey,
                            "jclouds.provider=filesystem",
                            "jclouds.filesystem.basedir=" + data.toAbsolutePath(),
                            "s3proxy.read-only-blobstore=" + readOnly,
                            ""),
                    StandardCharsets.UTF_8);
            Path secretFile = directory.resolve(SECRET_KEY_FILE);
            Files.deleteIfExists(secretFile);
            Files.createFile(
                    secretFile, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(secretFile, secretKey, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new LocalClusterException(
                    "Cannot prepare the S3 server's directory '" + directory + "': " + e.getMessage(), e);
        }
        // umask 077: the objects it writes are private files too (see above); exec keeps one process to stop
        List<String> command = List.of(
                "/bin/sh",
                "-c",
                "umask 077 && exec \"$0\" \"$@\"",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + HEAP,
                "-jar",
                jar.toString(),
                "--properties",
                settings.toString());
        ServerProcess process = ServerProcess.start("the S3 server", command, log, port, START_TIMEOUT);
        return new S3Server(process, endpoint, accessKey, secretKey, directory, data, log);
    }

    /** Where clients reach it, as {@code http://127.0.0.1:port}. */
    public URI endpoint() {
        return endpoint;
    }

    public String bucket() {
        return BUCKET;
    }

    public String accessKey() {
        return accessKey;
    }

    public String secretKey() {
        return secretKey;
    }

    /** The file (mode 600) that holds only the secret key: what a user is pointed to instead of the key. */
    public Path secretKeyFile() {
        return directory.resolve(SECRET_KEY_FILE);
    }

    public long pid() {
        return process.pid();
    }

    public Path log() {
        return log;
    }

    /** The directory the filesystem backend keeps the bucket's objects in: one file per object. */
    public Path bucketDirectory() {
        return data.resolve(BUCKET);
    }

    /** {@code s3a://bucket/key}. */
    public String uri(String key) {
        requireNonNull(key, "key is null");
        return "s3a://" + BUCKET + "/" + (key.startsWith("/") ? key.substring(1) : key);
    }

    /**
     * The Hadoop settings S3A needs to reach this server: its endpoint, path-style addressing (no bucket host
     * names on 127.0.0.1), plain HTTP, a region for the signature, and the keys; and one delete per object, as
     * S3Proxy answers the AWS SDK's bulk delete (whose CRC32 checksum header it does not know) with 501.
     */
    public Map<String, String> hadoopSettings() {
        Map<String, String> settings = new LinkedHashMap<>(hadoopSettingsWithoutKeys(endpoint));
        settings.put("fs.s3a.access.key", accessKey);
        settings.put("fs.s3a.secret.key", secretKey);
        return settings;
    }

    /** The settings of {@link #hadoopSettings()} but the keys, for an {@code endpoint}. */
    public static Map<String, String> hadoopSettingsWithoutKeys(URI endpoint) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("fs.s3a.endpoint", endpoint.toString());
        settings.put("fs.s3a.endpoint.region", "us-east-1");
        settings.put("fs.s3a.path.style.access", "true");
        settings.put("fs.s3a.connection.ssl.enabled", "false");
        settings.put("fs.s3a.multiobjectdelete.enable", "false");
        return settings;
    }

    /** {@link #hadoopSettings()} as Spark settings: each key prefixed with {@code spark.hadoop.}. */
    public Map<String, String> sparkSettings() {
        Map<String, String> settings = new LinkedHashMap<>();
        hadoopSettings().forEach((key, value) -> settings.put("spark.hadoop." + key, value));
        return settings;
    }

    /** Why the server is of no use, when its process has exited. */
    public Optional<String> exited() {
        return process.isAlive() ? Optional.empty() : Optional.of(process.exitedReason());
    }

    /** Stops the server (SIGTERM, then SIGKILL after a grace period); the objects stay on disk. */
    @Override
    public void close() {
        process.stop();
    }

    private static String randomHex(int bytes) {
        byte[] random = new byte[bytes];
        new SecureRandom().nextBytes(random);
        return HexFormat.of().formatHex(random);
    }
}
