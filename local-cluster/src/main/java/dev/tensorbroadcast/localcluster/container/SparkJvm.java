package dev.tensorbroadcast.localcluster.container;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

/**
 * The command line of a Spark JVM inside the image: plain {@code java} on the image's jars, as Spark's launcher scripts
 * would build it, so the image needs no Spark shell scripts.
 */
final class SparkJvm {
    static final String SPARK_HOME = "/opt/spark";
    /** Where each container sees the cluster's properties file (with the secret), read-only. */
    static final String PROPERTIES_FILE = SPARK_HOME + "/conf/cluster.properties";
    private static final String CLASS_PATH = SPARK_HOME + "/jars/*";

    /** What Spark's launcher adds for a JDK 17+ JVM; Spark adds the same to the executors it starts. */
    private static final List<String> MODULE_OPTIONS = List.of(
            "-XX:+IgnoreUnrecognizedVMOptions",
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.net=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
            "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
            "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
            "-Dio.netty.tryReflectionSetAccessible=true");

    private SparkJvm() {}

    static String[] command(String heap, String mainClass, List<String> arguments) {
        requireNonNull(heap, "heap is null");
        requireNonNull(mainClass, "mainClass is null");
        List<String> command = new ArrayList<>();
        command.add("java");
        command.add("-Xmx" + heap);
        command.addAll(MODULE_OPTIONS);
        // java expands the jars/* wildcard itself: no shell runs in the container
        command.add("-cp");
        command.add(CLASS_PATH);
        command.add(mainClass);
        command.addAll(arguments);
        return command.toArray(String[]::new);
    }
}
