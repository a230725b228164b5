package dev.tensorbroadcast.job.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.localcluster.LocalCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;

/** What the integration tests on a local cluster share: the driver's session, and comparing outputs. */
public final class ClusterRuns {
    /** The spark-submit jar the build made: the executors load our classes from it, as on any cluster. */
    public static final String JARS_PROPERTY = "tensorbroadcast.spark.jars";

    private ClusterRuns() {}

    /** A driver on {@code cluster}, shipping the spark-submit jar to the executors. */
    public static SparkSession session(LocalCluster cluster) {
        return session(cluster, java.util.Map.of());
    }

    /** A driver on {@code cluster} with more Spark settings. */
    public static SparkSession session(LocalCluster cluster, java.util.Map<String, String> settings) {
        String jars = System.getProperty(JARS_PROPERTY);
        assertThat(jars).as("system property " + JARS_PROPERTY).isNotBlank();
        assertThat(Path.of(jars)).isRegularFile();
        SparkSession.Builder builder = SparkSession.builder().appName("tensor-broadcast-it");
        cluster.sparkConf().forEach(builder::config);
        builder.config("spark.jars", jars).config("spark.ui.showConsoleProgress", "false")
                .config("spark.executor.memory", "512m");
        settings.forEach(builder::config);
        return builder.getOrCreate();
    }

    /** The part files of a dataset, by name. */
    public static List<Path> partFiles(Path dataset) throws IOException {
        try (Stream<Path> files = Files.list(dataset)) {
            return files.filter(file -> file.getFileName().toString().startsWith(Manifest.PART_PREFIX)).sorted()
                    .toList();
        }
    }

    /** Every entry of a dataset directory, by name: the part files, the manifest and _SUCCESS, nothing else. */
    public static List<String> entries(Path dataset) throws IOException {
        try (Stream<Path> files = Files.list(dataset)) {
            return files.map(file -> file.getFileName().toString()).sorted().toList();
        }
    }

    /** Asserts that two datasets hold the same part files with the same bytes. */
    public static void assertSameFiles(Path actual, Path expected) throws IOException {
        List<String> actualNames = new ArrayList<>();
        partFiles(actual).forEach(file -> actualNames.add(file.getFileName().toString()));
        List<String> expectedNames = new ArrayList<>();
        partFiles(expected).forEach(file -> expectedNames.add(file.getFileName().toString()));
        assertThat(actualNames).isNotEmpty().isEqualTo(expectedNames);
        for (String name : expectedNames) {
            assertThat(Files.readAllBytes(actual.resolve(name))).as(name)
                    .isEqualTo(Files.readAllBytes(expected.resolve(name)));
        }
    }

    /** The executor JVMs running under the cluster's workers, by pid: descendants that run the executor backend. */
    public static List<ProcessHandle> executors(LocalCluster cluster) throws IOException {
        List<ProcessHandle> executors = new ArrayList<>();
        for (long pid : cluster.pids()) {
            for (ProcessHandle process : ProcessHandle.of(pid).map(ProcessHandle::descendants).orElse(Stream.empty())
                    .toList()) {
                if (commandLine(process).contains("CoarseGrainedExecutorBackend")) {
                    executors.add(process);
                }
            }
        }
        return executors;
    }

    /** The worker JVMs of the cluster: its processes that run Spark's standalone worker. */
    public static List<ProcessHandle> workers(LocalCluster cluster) throws IOException {
        List<ProcessHandle> workers = new ArrayList<>();
        for (long pid : cluster.pids()) {
            ProcessHandle process = ProcessHandle.of(pid).orElse(null);
            if (process != null && commandLine(process).contains("org.apache.spark.deploy.worker.Worker")) {
                workers.add(process);
            }
        }
        return workers;
    }

    /** The executor id in an executor JVM's command line ({@code --executor-id <id>}). */
    public static String executorId(ProcessHandle executor) throws IOException {
        List<String> arguments = List.of(commandLine(executor).split("\0"));
        return arguments.get(arguments.indexOf("--executor-id") + 1);
    }

    private static String commandLine(ProcessHandle process) throws IOException {
        try {
            return Files.readString(Path.of("/proc", Long.toString(process.pid()), "cmdline"),
                    StandardCharsets.ISO_8859_1);
        } catch (java.nio.file.NoSuchFileException exited) {
            return "";
        }
    }
}
