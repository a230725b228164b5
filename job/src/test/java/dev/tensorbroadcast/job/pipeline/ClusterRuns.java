package dev.tensorbroadcast.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.manifest.DatasetFile;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.localcluster.LocalCluster;
import dev.tensorbroadcast.localcluster.ProcessCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorRemoved;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
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
        builder.config("spark.jars", jars)
                .config("spark.ui.showConsoleProgress", "false")
                .config("spark.executor.memory", "512m");
        settings.forEach(builder::config);
        SparkSession spark = builder.getOrCreate();
        awaitExecutors(spark, cluster.workers());
        return spark;
    }

    /**
     * Waits until every worker's executor has registered: tasks start on the first one that does, and a test that
     * kills a worker, or expects work on both, needs both from the start.
     */
    private static void awaitExecutors(SparkSession spark, int executors) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        // the status tracker lists the driver too
        while (spark.sparkContext().statusTracker().getExecutorInfos().length < executors + 1) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "only " + (spark.sparkContext().statusTracker().getExecutorInfos().length - 1) + " of "
                                + executors + " executors registered within 60 s");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for executors", e);
            }
        }
    }

    /** The part files of a dataset, by name. */
    public static List<Path> partFiles(Path dataset) throws IOException {
        try (Stream<Path> files = Files.list(dataset)) {
            return files.filter(file -> file.getFileName().toString().startsWith(Manifest.PART_PREFIX))
                    .sorted()
                    .toList();
        }
    }

    /** Every entry of a dataset directory, by name: the part files, the manifest and _SUCCESS, nothing else. */
    public static List<String> entries(Path dataset) throws IOException {
        try (Stream<Path> files = Files.list(dataset)) {
            return files.map(file -> file.getFileName().toString()).sorted().toList();
        }
    }

    /**
     * Asserts that two datasets hold the same part files with the same bytes (a Parquet footer's encodings in one
     * order: {@link ParquetFooters}, as executors of one job order them each its own way).
     */
    public static void assertSameFiles(Path actual, Path expected) throws IOException {
        List<String> actualNames = new ArrayList<>();
        partFiles(actual).forEach(file -> actualNames.add(file.getFileName().toString()));
        List<String> expectedNames = new ArrayList<>();
        partFiles(expected).forEach(file -> expectedNames.add(file.getFileName().toString()));
        assertThat(actualNames).isNotEmpty().isEqualTo(expectedNames);
        for (String name : expectedNames) {
            assertThat(comparable(actual.resolve(name))).as(name).isEqualTo(comparable(expected.resolve(name)));
        }
    }

    private static byte[] comparable(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        return file.getFileName().toString().endsWith(".parquet") ? ParquetFooters.canonical(file, bytes) : bytes;
    }

    /** The executor JVMs running under the cluster's workers, by pid: descendants that run the executor backend. */
    public static List<ProcessHandle> executors(ProcessCluster cluster) throws IOException {
        List<ProcessHandle> executors = new ArrayList<>();
        for (long pid : cluster.pids()) {
            for (ProcessHandle process : ProcessHandle.of(pid)
                    .map(ProcessHandle::descendants)
                    .orElse(Stream.empty())
                    .toList()) {
                if (commandLine(process).contains("CoarseGrainedExecutorBackend")) {
                    executors.add(process);
                }
            }
        }
        return executors;
    }

    /** The worker JVMs of the cluster: its processes that run Spark's standalone worker. */
    public static List<ProcessHandle> workers(ProcessCluster cluster) throws IOException {
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
            return Files.readString(
                    Path.of("/proc", Long.toString(process.pid()), "cmdline"), StandardCharsets.ISO_8859_1);
        } catch (java.nio.file.NoSuchFileException exited) {
            return "";
        } catch (IOException e) {
            // a process exiting while its cmdline is read fails the read with ESRCH ("No such process")
            if (!process.isAlive()) {
                return "";
            }
            throw e;
        }
    }

    /** The dataset holds its manifest's files, the manifest and {@code _SUCCESS}, and nothing else. */
    public static void assertOnlyDatasetFiles(Path output, Manifest manifest) throws IOException {
        List<String> expected =
                new ArrayList<>(manifest.files().stream().map(DatasetFile::path).toList());
        expected.add(Manifest.FILE_NAME);
        expected.add(Manifest.SUCCESS_FILE_NAME);
        assertThat(entries(output)).containsExactlyInAnyOrderElementsOf(expected);
    }

    /** What a job killed under gave, and how many task ends Spark reported for it (retried tasks included). */
    public record AfterKill<T>(T result, int taskEnds, double seconds) {}

    /** Kills something of the cluster's while a job runs; returns the id of the executor that goes with it. */
    public interface Kill {
        String kill() throws Exception;
    }

    /** Kills one executor JVM with SIGKILL: the worker stays and starts another. */
    public static Kill anExecutor(ProcessCluster cluster) {
        return () -> {
            List<ProcessHandle> executors = executors(cluster);
            assertThat(executors).hasSizeGreaterThanOrEqualTo(2);
            ProcessHandle victim = executors.get(0);
            String id = executorId(victim);
            assertThat(victim.destroyForcibly()).isTrue();
            assertThat(victim.onExit().get(30, TimeUnit.SECONDS).isAlive()).isFalse();
            return id;
        };
    }

    /**
     * Runs {@code job} on another thread with every task slowed by {@code delayMillis} (so it still runs when the
     * kill comes), kills once {@code afterTasks} tasks have ended, and waits for the job; the executor the kill names
     * must be reported removed.
     */
    public static <T> AfterKill<T> killingWhileRunning(
            SparkSession spark, long delayMillis, int afterTasks, Kill kill, Supplier<T> job) throws Exception {
        AtomicInteger finishedTasks = new AtomicInteger();
        Set<String> removedExecutors = ConcurrentHashMap.newKeySet();
        SparkListener listener = new SparkListener() {
            @Override
            public void onTaskEnd(SparkListenerTaskEnd taskEnd) {
                finishedTasks.incrementAndGet();
            }

            @Override
            public void onExecutorRemoved(SparkListenerExecutorRemoved removed) {
                removedExecutors.add(removed.executorId());
            }
        };
        spark.sparkContext().addSparkListener(listener);
        long start = System.nanoTime();
        try {
            // local properties are per thread: the job's thread sets them for its own tasks
            CompletableFuture<T> running = CompletableFuture.supplyAsync(() -> {
                spark.sparkContext().setLocalProperty(InjectedFailure.TASK_DELAY_MILLIS, Long.toString(delayMillis));
                try {
                    return job.get();
                } finally {
                    spark.sparkContext().setLocalProperty(InjectedFailure.TASK_DELAY_MILLIS, null);
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (finishedTasks.get() < afterTasks && System.nanoTime() < deadline && !running.isDone()) {
                Thread.sleep(50);
            }
            assertThat(running).isNotDone();
            String killed = kill.kill();
            T result = running.get(180, TimeUnit.SECONDS);
            // the last task's end, and the executor's removal, may still be queued when the job returns
            spark.sparkContext().listenerBus().waitUntilEmpty();
            assertThat(removedExecutors).contains(killed);
            return new AfterKill<>(result, finishedTasks.get(), (System.nanoTime() - start) / 1e9);
        } finally {
            spark.sparkContext().removeSparkListener(listener);
        }
    }
}
