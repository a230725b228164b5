package dev.tensorbroadcast.localcluster;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A Spark installation the cluster's processes run from: its {@code jars/} holds Spark's jars, spark-core among
 * them. The build assembles one at {@code local-cluster/target/spark-home}, which also holds {@code hdfs-jars/}, the
 * class path of the optional HDFS.
 */
public record SparkHome(Path path) {
    /** The system property that names the Spark home. */
    public static final String PROPERTY = "tensorbroadcast.spark.home";

    public SparkHome {
        requireNonNull(path, "path is null");
        path = path.toAbsolutePath().normalize();
        if (!hasSparkCore(path.resolve("jars"))) {
            throw new LocalClusterException("Cannot use Spark home '" + path + "': " + path.resolve("jars")
                    + " holds no spark-core jar; build one with 'mvn -pl local-cluster -am package'"
                    + " (it lands in local-cluster/target/spark-home) or give a Spark 4.2 installation");
        }
    }

    /** The Spark home named by the system property {@value #PROPERTY}. */
    public static SparkHome locate() {
        String configured = System.getProperty(PROPERTY);
        if (configured == null || configured.isBlank()) {
            throw new LocalClusterException("Cannot find a Spark home: the system property " + PROPERTY
                    + " is not set; set it to local-cluster/target/spark-home (the tensor-broadcast launcher and"
                    + " the project's tests do)");
        }
        return new SparkHome(Path.of(configured));
    }

    public Path jars() {
        return path.resolve("jars");
    }

    /** The class path entry of every Spark jar. */
    String classPath() {
        return jars() + "/*";
    }

    /** The jars the HDFS process runs on, when this home has them. */
    Optional<Path> hdfsJars() {
        Path jars = path.resolve("hdfs-jars");
        return Files.isDirectory(jars) ? Optional.of(jars) : Optional.empty();
    }

    /** S3Proxy's jar-with-dependencies in {@code s3proxy/}, which the S3 server runs, when this home has it. */
    /** S3Mock's executable jar ({@code s3mock/s3mock-*-exec.jar}): the S3 server that honours conditional writes. */
    public Optional<Path> s3MockJar() {
        return jarIn("s3mock", "s3mock-");
    }

    public Optional<Path> s3ProxyJar() {
        return jarIn("s3proxy", "s3proxy-");
    }

    /** The first jar named {@code prefix*.jar} in the directory {@code name}, if there is one. */
    private Optional<Path> jarIn(String name, String prefix) {
        Path directory = path.resolve(name);
        if (!Files.isDirectory(directory)) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(file -> file.getFileName().toString().startsWith(prefix)
                            && file.getFileName().toString().endsWith(".jar"))
                    .findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static boolean hasSparkCore(Path jars) {
        if (!Files.isDirectory(jars)) {
            return false;
        }
        try (Stream<Path> files = Files.list(jars)) {
            return files.anyMatch(file -> file.getFileName().toString().startsWith("spark-core_"));
        } catch (IOException e) {
            return false;
        }
    }
}
