package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.pipeline.DatasetFiles;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.localcluster.ClusterMasters;
import dev.tensorbroadcast.localcluster.ClusterState;
import dev.tensorbroadcast.localcluster.ClusterStateDirectory;
import dev.tensorbroadcast.localcluster.SparkHome;
import dev.tensorbroadcast.localcluster.YarnCluster;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job on a real YARN (a ResourceManager and two NodeManagers on this machine, with HDFS), one cluster for the
 * class: {@code spark-submit --master yarn} of the spark-submit jar in cluster mode ({@code broadcast-tensors}) and
 * client mode ({@code expand} while a NodeManager is stopped, then {@code reduce} of what it wrote), output on HDFS and
 * byte for byte what local mode writes (the CRC-32C of every file); the application killed through YARN's client API;
 * a container larger than YARN grants; and {@code --master local-cluster} of the command line itself, which finds the
 * cluster as {@code cluster start --yarn} records it. Each spark-submit pays for a driver, an application master and
 * executors starting: one run proves what it can.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class YarnSubmitIT {
    private static final String MAIN = TensorBroadcastCli.class.getName();
    private static final long JOB_SECONDS = 300;
    private static final String SHAPE = "4,96,64";
    /**
     * The containers' JVMs (application master, driver in cluster mode, executors) live for seconds and do little:
     * the JIT's first tier and one GC thread spare the shared machine's cores what their start would cost.
     */
    private static final String QUICK_JVM_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

    private static final List<String> QUICK_JVMS = List.of(
            "--conf",
            "spark.yarn.am.extraJavaOptions=" + QUICK_JVM_OPTIONS,
            "--conf",
            "spark.driver.extraJavaOptions=" + QUICK_JVM_OPTIONS,
            "--conf",
            "spark.executor.extraJavaOptions=" + QUICK_JVM_OPTIONS);

    @TempDir
    static Path dir;

    private static YarnCluster cluster;
    private static URI hdfs;
    private static Path jar;
    private static Path state;
    private static Configuration hadoop;
    private static Path source;

    @BeforeAll
    static void startYarnAndRecordIt() throws Exception {
        jar = Path.of(System.getProperty(ClusterMasters.JARS_PROPERTY, "no " + ClusterMasters.JARS_PROPERTY));
        assertThat(jar).as("the spark-submit jar (mvn package builds it)").isRegularFile();
        long start = System.nanoTime();
        cluster = YarnCluster.builder(SparkHome.locate())
                .nodeManagers(2)
                .hdfs(true)
                .start();
        System.out.printf("YARN (2 NodeManagers) and HDFS started in %.1f s%n", (System.nanoTime() - start) / 1e9);
        hdfs = cluster.hdfsUri().orElseThrow();
        hadoop = new Configuration();
        for (String site : List.of("core-site.xml", "yarn-site.xml")) {
            hadoop.addResource(new org.apache.hadoop.fs.Path(
                    cluster.hadoopConfDir().resolve(site).toUri()));
        }
        // the command line finds the cluster as 'cluster start --yarn' records it
        state = dir.resolve("state");
        System.setProperty(ClusterStateDirectory.PROPERTY, state.toString());
        ClusterStateDirectory states = ClusterStateDirectory.locate();
        states.create();
        states.write(new ClusterState(
                ClusterState.ClusterProcess.of(ProcessHandle.current()),
                cluster.masterUrl(),
                cluster.resourceManagerWebPort(),
                cluster.workers(),
                hdfs.toString(),
                cluster.secretFile().toString(),
                cluster.workDirectory().toString(),
                List.of(),
                null,
                cluster.hadoopConfDir().toString()));

        source = NpyFiles.int32(dir.resolve("rows.npy"), new long[] {4, 1, 64});
        try (FileSystem fileSystem = FileSystem.newInstance(hdfs, hadoop)) {
            fileSystem.copyFromLocalFile(hadoopPath(source), new org.apache.hadoop.fs.Path("/in/rows.npy"));
            for (String example : List.of("col3.npy", "row3.npy")) {
                fileSystem.copyFromLocalFile(
                        hadoopPath(Path.of("..", "examples", example).toAbsolutePath()),
                        new org.apache.hadoop.fs.Path("/in/" + example));
            }
        }
    }

    @AfterAll
    static void stopYarn() {
        System.clearProperty(ClusterStateDirectory.PROPERTY);
        if (cluster != null) {
            cluster.close();
        }
    }

    /**
     * Cluster mode on the smallest request (the driver is the application master's container): two files of three
     * rows, one executor.
     */
    @Test
    @Order(1)
    void broadcastTensorsInClusterModeWritesWhatLocalModeWrites() throws Exception {
        Submitted run = submit(
                "cluster",
                "pair",
                List.of("--conf", "spark.executor.instances=1"),
                "broadcast-tensors",
                "--input",
                hdfs + "/in/col3.npy",
                "--input",
                hdfs + "/in/row3.npy",
                "--dialect",
                "paddle",
                "--output",
                hdfs + "/out/pair");
        assertThat(run.exitCode()).as(run.log()).isZero();
        // the driver ran in the application master's container: spark-submit only reports YARN's final state
        assertThat(run.log()).contains("final status: SUCCEEDED");
        Path local = local(
                "broadcast-tensors",
                "--input",
                Path.of("..", "examples", "col3.npy").toString(),
                "--input",
                Path.of("..", "examples", "row3.npy").toString(),
                "--dialect",
                "paddle",
                "--output",
                dir.resolve("pair-local").toString());
        Path copied = copy("/out/pair");
        assertSameFiles(copied, local);
        assertThat(crc32cs(copied).keySet()).containsExactly("0/part-00000.arrow", "1/part-00000.arrow");
    }

    @Test
    @Order(2)
    void aContainerLargerThanYarnGrantsIsRefusedInOneLineNamingTheSetting() {
        CliRun run = CliRun.of(
                "expand",
                "--input",
                hdfs + "/in/rows.npy",
                "--dialect",
                "numpy",
                "--shape",
                SHAPE,
                "--output",
                hdfs + "/out/too-large",
                "--master",
                "yarn",
                "--conf",
                "spark.executor.memory=4g");
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.REFUSED);
        assertThat(run.err().lines().toList())
                .containsExactly("Cannot start Spark on master 'yarn': an executor's"
                        + " container would need 4505 MB (spark.executor.memory 4096 MB, spark.executor.memoryOverhead 409"
                        + " MB) and YARN grants at most 2048 MB (yarn.scheduler.maximum-allocation-mb, at most"
                        + " yarn.nodemanager.resource.memory-mb); lower spark.executor.memory");
        assertThat(exists("/out/too-large")).isFalse();
    }

    @Test
    @Order(3)
    void anApplicationKilledThroughYarnEndsInOneLineAndNoCompleteDataset() throws Exception {
        Path log = dir.resolve("killed.log");
        String output = hdfs + "/out/killed";
        String killed;
        // --master local-cluster: the running cluster 'cluster start' recorded, a YARN one (ClusterYarnCommandIT
        // runs --master yarn)
        List<String> arguments = new ArrayList<>(List.of(
                "expand",
                "--input",
                hdfs + "/in/rows.npy",
                "--dialect",
                "numpy",
                "--shape",
                "4,960,64",
                "--partitions",
                "48",
                "--output",
                output,
                "--master",
                "local-cluster",
                "--conf",
                "spark.tensorbroadcast.test.taskDelayMillis=500"));
        arguments.addAll(QUICK_JVMS);
        Process cli = CliProcess.start(
                Map.of(ClusterStateDirectory.ENVIRONMENT, state.toString()), log, arguments.toArray(String[]::new));
        try (YarnClient yarn = yarnClient()) {
            ApplicationReport application = awaitRunning(yarn, cli, log);
            awaitPartFiles("/out/killed", 2, cli, log);
            yarn.killApplication(application.getApplicationId());
            killed = application.getApplicationId().toString();
            long start = System.nanoTime();
            boolean ended = cli.waitFor(30, TimeUnit.SECONDS);
            if (!ended) {
                // it has ended within seconds, and once after 121 s: what it waits for then
                System.out.printf(
                        "the driver still runs 30 s after the kill:%n%s%n%s%n", CliProcess.read(log), threads(cli));
                ended = cli.waitFor(JOB_SECONDS, TimeUnit.SECONDS);
            }
            assertThat(ended)
                    .as("%s%n%s", CliProcess.read(log), ended ? "" : threads(cli))
                    .isTrue();
            System.out.printf("the driver ended %.1f s after the kill%n", (System.nanoTime() - start) / 1e9);
            assertThat(yarn.getApplicationReport(application.getApplicationId()).getYarnApplicationState())
                    .isEqualTo(YarnApplicationState.KILLED);
        } finally {
            cli.destroyForcibly();
        }
        String printed = CliProcess.read(log);
        assertThat(cli.exitValue()).as(printed).isEqualTo(ExitCode.INTERNAL_ERROR);
        List<String> lines = printed.lines().toList();
        assertThat(lines).as(printed).hasSize(2);
        assertThat(lines.get(0)).startsWith("writing [4,960,64] int32");
        assertThat(lines.get(1))
                .as(printed)
                .startsWith("Cannot write '" + output + "': the Spark job failed: its" + " YARN application " + killed
                        + " ended under it (killed, or its application master lost); ");

        CliRun inspect = CliRun.of("inspect", output, "--json");
        assertThat(inspect.exitCode()).as(inspect.out() + inspect.err()).isNotZero();
        assertThat(exists("/out/killed/" + Manifest.SUCCESS_FILE_NAME)).isFalse();
        assertThat(exists("/out/killed/" + Manifest.FILE_NAME)).isFalse();
    }

    /**
     * Client mode's proof too: {@code expand} of spark-submit's driver on this machine, executors in YARN's
     * containers. It leaves the cluster one NodeManager short.
     */
    @Test
    @Order(4)
    void aNodeManagerStoppedMidJobLeavesTheDatasetByteIdentical() throws Exception {
        String shape = "4,960,64";
        List<String> request = List.of(
                "expand",
                "--input",
                hdfs + "/in/rows.npy",
                "--dialect",
                "numpy",
                "--shape",
                shape,
                "--partitions",
                "48");
        Path log = dir.resolve("node-stopped.log");
        // an executor on each NodeManager, so that one can be lost while the other lives on
        List<String> arguments = new ArrayList<>(List.of(
                "--conf", "spark.executor.instances=2", "--conf", "spark.tensorbroadcast.test.taskDelayMillis=400"));
        arguments.addAll(QUICK_JVMS);
        arguments.addAll(List.of("--class", MAIN, jar.toString()));
        arguments.addAll(request);
        arguments.addAll(List.of("--output", hdfs + "/out/node-stopped"));
        long start = System.nanoTime();
        Process driver = start("client", arguments, log);
        String stopped;
        try (YarnClient yarn = yarnClient()) {
            ApplicationReport application = awaitRunning(yarn, driver, log);
            awaitPartFiles("/out/node-stopped", 4, driver, log);
            assertThat(exists("/out/node-stopped/" + Manifest.SUCCESS_FILE_NAME))
                    .as("finished before the stop")
                    .isFalse();
            // the NodeManager without the application master: the application lives on, its executors there die
            NodeId master = yarn.getContainerReport(
                            yarn.getApplicationAttemptReport(application.getCurrentApplicationAttemptId())
                                    .getAMContainerId())
                    .getAssignedNode();
            NodeReport victim = yarn.getNodeReports(NodeState.RUNNING).stream()
                    .filter(node -> !node.getNodeId().equals(master))
                    .findFirst()
                    .orElseThrow();
            assertThat(victim.getNumContainers())
                    .as("executors on the other NodeManager")
                    .isPositive();
            stopped = victim.getNodeId().toString();
            cluster.stopNodeManager(stopped);
            assertThat(driver.waitFor(JOB_SECONDS, TimeUnit.SECONDS))
                    .as(CliProcess.read(log))
                    .isTrue();
        } finally {
            driver.destroyForcibly();
        }
        System.out.printf(
                "spark-submit --deploy-mode client expand, a NodeManager stopped: %.1f s%n",
                (System.nanoTime() - start) / 1e9);
        String printed = CliProcess.read(log);
        assertThat(driver.exitValue()).as(printed).isZero();
        assertThat(printed)
                .contains("Lost executor")
                .contains("wrote " + hdfs + "/out/node-stopped: 3840 rows of [64] int32 in 48 arrow files");
        // until the ResourceManager has given the stopped NodeManager up it may still place containers there
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (cluster.status().aliveWorkers() != 1 && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertThat(cluster.status().aliveWorkers()).as("NodeManagers left").isEqualTo(1);

        Path local =
                local(request, "--output", dir.resolve("node-stopped-local").toString());
        Path copied = copy("/out/node-stopped");
        assertSameFiles(copied, local);
        Manifest manifest = DatasetFiles.manifest(copied);
        DatasetFiles.checkFiles(copied, manifest);
        // written by YARN's executors, not the driver
        assertThat(manifest.files())
                .allSatisfy(file -> assertThat(file.executorId()).isNotEqualTo("driver"));
        System.out.println("stopped NodeManager " + stopped);
    }

    /**
     * On the dataset the NodeManager's stop left (48 partitions of [4,960,64]: 3840 rows of [64]), with the one
     * NodeManager left: room for one executor.
     */
    @Test
    @Order(5)
    void reduceInClientModeWritesWhatLocalModeWrites() throws Exception {
        // a .npy is written on the driver's disk: on a cluster the gradient is a dataset
        Submitted run = submit(
                "client",
                "reduce",
                List.of("--conf", "spark.executor.instances=1"),
                "reduce",
                "--input",
                hdfs + "/out/node-stopped",
                "--dialect",
                "numpy",
                "--input-shape",
                "1,64",
                "--shape",
                "3840,64",
                "--format",
                "arrow",
                "--output",
                hdfs + "/out/grad");
        assertThat(run.exitCode()).as(run.log()).isZero();
        Path local = local(
                "reduce",
                "--input",
                dir.resolve("node-stopped-local").toString(),
                "--dialect",
                "numpy",
                "--input-shape",
                "1,64",
                "--shape",
                "3840,64",
                "--format",
                "arrow",
                "--output",
                dir.resolve("grad-local").toString());
        assertSameFiles(copy("/out/grad"), local);
    }

    /** The threads of a process that does not end, for the failure's message. */
    private static String threads(Process process) {
        try {
            Process jstack = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "jstack")
                                    .toString(),
                            Long.toString(process.pid()))
                    .redirectErrorStream(true)
                    .start();
            return new String(jstack.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "no jstack: " + e;
        }
    }

    /** What a spark-submit run printed and how it ended. */
    private record Submitted(int exitCode, String log) {}

    /**
     * {@code spark-submit --master yarn --deploy-mode <mode> <options> --class <main> <jar> <arguments>}, to its end,
     * its containers' JVMs as {@link #QUICK_JVMS}.
     */
    private static Submitted submit(String deployMode, String name, List<String> options, String... arguments)
            throws Exception {
        List<String> all = new ArrayList<>(options);
        all.addAll(QUICK_JVMS);
        all.addAll(List.of("--class", MAIN, jar.toString()));
        all.addAll(List.of(arguments));
        Path log = dir.resolve(name + ".log");
        long start = System.nanoTime();
        Process process = start(deployMode, all, log);
        boolean ended = process.waitFor(JOB_SECONDS, TimeUnit.SECONDS);
        if (!ended) {
            process.destroyForcibly();
        }
        assertThat(ended)
                .as("spark-submit ended within %d s:%n%s", JOB_SECONDS, CliProcess.read(log))
                .isTrue();
        System.out.printf(
                "spark-submit --deploy-mode %s %s: %.1f s%n",
                deployMode, arguments[0], (System.nanoTime() - start) / 1e9);
        return new Submitted(process.exitValue(), CliProcess.read(log));
    }

    private static Process start(String deployMode, List<String> arguments, Path log) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(cluster.sparkSubmit(deployMode, arguments))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(cluster.submitEnvironment());
        return builder.start();
    }

    /** The same request in local mode, in this JVM; returns its output. */
    private static Path local(String... arguments) {
        CliRun run = CliRun.of(withLocalMaster(List.of(arguments)));
        assertThat(run.exitCode()).as(run.err()).isZero();
        List<String> list = List.of(arguments);
        return Path.of(list.get(list.indexOf("--output") + 1));
    }

    private static Path local(List<String> request, String... more) {
        List<String> all = new ArrayList<>(request.stream()
                .map(argument -> argument.equals(hdfs + "/in/rows.npy") ? source.toString() : argument)
                .toList());
        all.addAll(List.of(more));
        return local(all.toArray(String[]::new));
    }

    private static String[] withLocalMaster(List<String> arguments) {
        List<String> all = new ArrayList<>(arguments);
        all.addAll(List.of("--master", "local[2]"));
        return all.toArray(String[]::new);
    }

    /** Copies an HDFS path into a local directory of the same name. */
    private static Path copy(String path) throws IOException {
        Path copied = dir.resolve("copied" + path.replace('/', '-'));
        try (FileSystem fileSystem = FileSystem.newInstance(hdfs, hadoop)) {
            fileSystem.copyToLocalFile(false, new org.apache.hadoop.fs.Path(path), hadoopPath(copied), true);
        }
        return copied;
    }

    private static boolean exists(String path) {
        try (FileSystem fileSystem = FileSystem.newInstance(hdfs, hadoop)) {
            return fileSystem.exists(new org.apache.hadoop.fs.Path(path));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Both datasets hold the same part files with the same CRC-32C, and the copy is complete. */
    private static void assertSameFiles(Path actual, Path expected) throws IOException {
        Map<String, String> crcs = crc32cs(actual);
        assertThat(crcs).isNotEmpty().isEqualTo(crc32cs(expected));
        try (Stream<Path> successes = Files.walk(actual)) {
            assertThat(successes.filter(file -> file.getFileName().toString().equals(Manifest.SUCCESS_FILE_NAME)))
                    .isNotEmpty();
        }
    }

    /** The CRC-32C of every part file under {@code dataset}, by its relative path. */
    private static Map<String, String> crc32cs(Path dataset) throws IOException {
        Map<String, String> crcs = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dataset)) {
            for (Path file : files.filter(Files::isRegularFile)
                    .filter(file -> file.getFileName().toString().startsWith(Manifest.PART_PREFIX))
                    .toList()) {
                crcs.put(dataset.relativize(file).toString(), crc32c(file));
            }
        }
        return crcs;
    }

    private static String crc32c(Path file) throws IOException {
        CRC32C crc = new CRC32C();
        crc.update(Files.readAllBytes(file));
        return String.format(Locale.ROOT, "%08x", crc.getValue());
    }

    private static YarnClient yarnClient() {
        YarnClient yarn = YarnClient.createYarnClient();
        yarn.init(hadoop);
        yarn.start();
        return yarn;
    }

    private static ApplicationReport awaitRunning(YarnClient yarn, Process driver, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(JOB_SECONDS);
        while (System.nanoTime() < deadline) {
            List<ApplicationReport> running = yarn.getApplications(EnumSet.of(YarnApplicationState.RUNNING));
            if (!running.isEmpty()) {
                return running.get(0);
            }
            assertThat(driver.isAlive())
                    .as("driver ended early:%n%s", CliProcess.read(log))
                    .isTrue();
            Thread.sleep(200);
        }
        throw new AssertionError("no application running after " + JOB_SECONDS + " s:\n" + CliProcess.read(log));
    }

    /** Waits until {@code count} part files (attempt files included) are under {@code path}. */
    private static void awaitPartFiles(String path, int count, Process driver, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(JOB_SECONDS);
        try (FileSystem fileSystem = FileSystem.newInstance(hdfs, hadoop)) {
            while (System.nanoTime() < deadline) {
                if (partFiles(fileSystem, path) >= count) {
                    return;
                }
                assertThat(driver.isAlive())
                        .as("driver ended early:%n%s", CliProcess.read(log))
                        .isTrue();
                Thread.sleep(100);
            }
        }
        throw new AssertionError("no " + count + " part files under " + path + ":\n" + CliProcess.read(log));
    }

    private static int partFiles(FileSystem fileSystem, String path) {
        int found = 0;
        try {
            RemoteIterator<LocatedFileStatus> files = fileSystem.listFiles(new org.apache.hadoop.fs.Path(path), true);
            while (files.hasNext()) {
                if (files.next().getPath().getName().startsWith(Manifest.PART_PREFIX)) {
                    found++;
                }
            }
        } catch (IOException e) {
            // not there yet, or a directory renamed while listing: count again later
            return 0;
        }
        return found;
    }

    private static org.apache.hadoop.fs.Path hadoopPath(Path local) {
        return new org.apache.hadoop.fs.Path(local.toUri());
    }
}
