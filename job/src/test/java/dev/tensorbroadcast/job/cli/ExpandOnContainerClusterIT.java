package dev.tensorbroadcast.job.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.manifest.DatasetFile;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.pipeline.DatasetFiles;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.localcluster.container.ContainerCluster;
import dev.tensorbroadcast.localcluster.container.ContainerDriver;
import dev.tensorbroadcast.localcluster.container.DriverExit;
import dev.tensorbroadcast.localcluster.junit.RequiresDocker;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code expand} submitted with spark-submit (the packaged spark-submit jar) from a driver container to a two-worker
 * container cluster, the output directory on storage every container shares; each result is compared file by file
 * with the same request run in local mode in this JVM.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@RequiresDocker
class ExpandOnContainerClusterIT {
    private static final String MAIN_CLASS = TensorBroadcastCli.class.getName();
    private static final Duration JOB_TIMEOUT = Duration.ofMinutes(5);

    @TempDir
    static Path shared;

    private static ContainerCluster cluster;
    private static Path jar;

    @BeforeAll
    static void startCluster() {
        jar = Path.of(System.getProperty("tensorbroadcast.spark.jars", "no tensorbroadcast.spark.jars"));
        assertThat(jar).as("the spark-submit jar (mvn package builds it)").isRegularFile();
        cluster = ContainerCluster.builder().workers(2).sharedDirectory(shared).start();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void expandsAcrossContainersAsLocalModeDoes() throws Exception {
        Path source = NpyFiles.int32(shared.resolve("row.npy"), new long[] {1, 4096});
        List<String> request = List.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "256,4096",
                "--partitions",
                "8");
        Path output = shared.resolve("containers");

        DriverExit exit;
        try (ContainerDriver driver = cluster.submit(jar, MAIN_CLASS, with(request, "--output", output))) {
            exit = driver.await(JOB_TIMEOUT);
        }

        assertThat(exit.exitCode())
                .as("driver output:\n%s\n%s", exit.stderr(), cluster.logs())
                .isZero();
        assertThat(exit.stdout()).startsWith("wrote file:" + output + ": 256 rows of [4096] int32 in 8 arrow files");
        assertSameAsLocalMode(request, output);
        // tasks ran in both workers' executors, each on its own host
        assertThat(DatasetFiles.manifest(output).files())
                .extracting(DatasetFile::host)
                .containsOnly(cluster.workerHost(0), cluster.workerHost(1))
                .contains(cluster.workerHost(0), cluster.workerHost(1));
    }

    /** Last: it leaves the cluster one worker short. */
    @Test
    @Order(2)
    void finishesTheJobWhenAWorkerDiesInTheMiddle() throws Exception {
        // 96 tasks of 2 MiB each on two one-core workers: the job is still running after the first few files
        Path source = NpyFiles.int32(shared.resolve("long-row.npy"), new long[] {1, 16384});
        List<String> request = List.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "3072,16384",
                "--partitions",
                "96");
        Path output = shared.resolve("worker-dies");

        DriverExit exit;
        int writtenBeforeKill;
        // each task first waits 250 ms (the test hook), so 96 tasks on two cores run for about 12 s: the kill lands
        // while most of them are still to come, however fast this machine is; the local reference waits for none
        try (ContainerDriver driver = cluster.submit(
                jar,
                MAIN_CLASS,
                with(request, "--output", output, "--conf", "spark.tensorbroadcast.test.taskDelayMillis=250"))) {
            writtenBeforeKill = awaitPartFiles(driver, output, 4);
            assertThat(output.resolve(Manifest.SUCCESS_FILE_NAME))
                    .as("finished before the kill")
                    .doesNotExist();
            cluster.killWorker(0);
            exit = driver.await(JOB_TIMEOUT);
        }

        assertThat(writtenBeforeKill).isLessThan(96);
        assertThat(exit.exitCode())
                .as("driver output:\n%s\n%s", exit.stderr(), cluster.logs())
                .isZero();
        // the kill took an executor with it, and the driver saw that
        assertThat(exit.stderr()).contains("Lost executor");
        assertSameAsLocalMode(request, output);
        List<String> hosts = DatasetFiles.manifest(output).files().stream()
                .map(DatasetFile::host)
                .toList();
        // the dead worker's committed files (if it committed any before the kill) survive; everything after its
        // death was written by the other one
        assertThat(hosts)
                .isSubsetOf(cluster.workerHost(0), cluster.workerHost(1))
                .contains(cluster.workerHost(1));
    }

    /** Waits until {@code count} part files (in attempt or task directories) exist; returns how many exist. */
    private static int awaitPartFiles(ContainerDriver driver, Path output, int count) throws Exception {
        long deadline = System.nanoTime() + JOB_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            int written = partFiles(output);
            if (written >= count) {
                return written;
            }
            assertThat(driver.running())
                    .as("driver ended early:\n%s", driver.output())
                    .isTrue();
            Thread.sleep(50);
        }
        throw new AssertionError("no " + count + " part files in " + output + " after " + JOB_TIMEOUT);
    }

    private static int partFiles(Path output) throws IOException {
        if (!Files.isDirectory(output)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(output)) {
            return (int) files.filter(file -> file.getFileName().toString().startsWith(Manifest.PART_PREFIX))
                    .count();
        } catch (java.io.UncheckedIOException e) {
            // a directory renamed away while walking: the committer is moving files, count again later
            return 0;
        }
    }

    /** The same request in local mode: the same files, part files byte for byte, and nothing else. */
    private static void assertSameAsLocalMode(List<String> request, Path output) throws IOException {
        Path local = shared.resolve(output.getFileName() + "-local");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exitCode = TensorBroadcastCli.run(
                with(request, "--output", local, "--master", "local[2]").toArray(String[]::new),
                new PrintStream(new ByteArrayOutputStream(), true, UTF_8),
                new PrintStream(err, true, UTF_8));
        assertThat(exitCode).as(err.toString(UTF_8)).isZero();

        Set<String> names = names(output);
        assertThat(names).isEqualTo(names(local));
        Manifest manifest = DatasetFiles.manifest(output);
        assertThat(names.stream().filter(name -> name.startsWith(Manifest.PART_PREFIX)))
                .hasSize(manifest.files().size());
        for (String name : names) {
            if (name.startsWith(Manifest.PART_PREFIX)) {
                assertThat(output.resolve(name)).as(name).hasSameBinaryContentAs(local.resolve(name));
            }
        }
    }

    private static Set<String> names(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(file -> file.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private static List<String> with(List<String> request, Object... more) {
        List<String> args = new ArrayList<>(request);
        for (Object argument : more) {
            args.add(argument.toString());
        }
        return args;
    }
}
