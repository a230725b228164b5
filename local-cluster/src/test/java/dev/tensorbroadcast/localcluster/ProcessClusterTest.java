package dev.tensorbroadcast.localcluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.localcluster.junit.WithLocalCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A two-worker cluster with HDFS, started once by the JUnit extension: what it runs, how it keeps its secret, and
 * that close stops it.
 */
@WithLocalCluster(workers = 2, workerMemory = "512m", hdfs = true)
class ProcessClusterTest {
    private static ProcessCluster cluster;

    @BeforeAll
    static void receive(ProcessCluster started) {
        cluster = started;
    }

    @Test
    void everyWorkerIsRegisteredWithTheMaster() {
        MasterStatus status = cluster.status();
        assertThat(status.url()).isEqualTo(cluster.masterUrl());
        assertThat(status.aliveWorkers()).isEqualTo(2);
        assertThat(cluster.workers()).isEqualTo(2);
        assertThat(cluster.masterUrl()).matches("spark://127\\.0\\.0\\.1:\\d+");
    }

    @Test
    void aClusterWithNoApplicationIsIdle() {
        assertThat(cluster.awaitIdle(Duration.ofSeconds(30))).isEmpty();
    }

    @Test
    void hdfsListensOnLoopback() {
        assertThat(cluster.hdfsUri()).hasValueSatisfying(uri -> {
            assertThat(uri.getScheme()).isEqualTo("hdfs");
            assertThat(uri.getHost()).isEqualTo("127.0.0.1");
            assertThat(uri.getPort()).isPositive();
        });
    }

    @Test
    void theSecretFileIsTheOwnersOnly() throws IOException {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cluster.secretFile())))
                .isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cluster.workDirectory())))
                .isEqualTo("rwx------");
        String secret = ClusterSecret.read(cluster.secretFile());
        assertThat(secret).matches("[0-9a-f]{64}");
        assertThat(cluster.sparkConf())
                .containsEntry("spark.authenticate", "true")
                .containsEntry("spark.authenticate.secret", secret)
                .containsEntry("spark.master", cluster.masterUrl());
    }

    @Test
    void theSecretIsOnNoCommandLine() throws IOException {
        String secret = ClusterSecret.read(cluster.secretFile());
        List<ProcessHandle> processes = new ArrayList<>();
        for (long pid : cluster.pids()) {
            ProcessHandle process = ProcessHandle.of(pid).orElseThrow();
            processes.add(process);
            process.descendants().forEach(processes::add);
        }
        assertThat(processes).hasSizeGreaterThanOrEqualTo(4);
        for (ProcessHandle process : processes) {
            String commandLine = Files.readString(
                    Path.of("/proc", Long.toString(process.pid()), "cmdline"), StandardCharsets.ISO_8859_1);
            assertThat(commandLine).contains("java").doesNotContain(secret);
        }
    }

    @Test
    void everyProcessListensOnLoopbackOnly() throws IOException {
        List<String> addresses = new ArrayList<>();
        for (long pid : cluster.pids()) {
            addresses.addAll(ListeningSockets.of(pid));
        }
        // the master's RPC port and web UI, each worker's, the NameNode's and the DataNode's
        assertThat(addresses).hasSizeGreaterThanOrEqualTo(6).allMatch(ListeningSockets::isLoopback);
    }

    @Test
    void theDaemonsStartWithTheSecurityDefaults() throws IOException {
        String settings = Files.readString(cluster.secretFile(), StandardCharsets.UTF_8);
        assertThat(settings).contains("spark.master.rest.enabled=false").contains("spark.authenticate=true");
    }

    @Test
    void secondClusterGetsADifferentSecretAndCloseLeavesNoProcess() {
        List<Long> pids;
        String otherSecret;
        Path workDirectory;
        long start = System.nanoTime();
        ProcessCluster closed;
        try (ProcessCluster other =
                ProcessCluster.builder(SparkHome.locate()).workers(1).start()) {
            closed = other;
            System.out.printf("a one-worker cluster started in %d ms%n", (System.nanoTime() - start) / 1_000_000);
            pids = other.pids();
            workDirectory = other.workDirectory();
            otherSecret = ClusterSecret.read(other.secretFile());
            assertThat(other.status().aliveWorkers()).isEqualTo(1);
            assertThat(other.exitedProcess()).isEmpty();
        }
        assertThat(Files.exists(workDirectory)).isFalse();
        assertThat(otherSecret).isNotEqualTo(ClusterSecret.read(cluster.secretFile()));
        assertThat(pids).hasSize(2);
        for (long pid : pids) {
            Optional<ProcessHandle> process = ProcessHandle.of(pid);
            assertThat(process.map(ProcessHandle::isAlive)).as("pid %d", pid).isNotEqualTo(Optional.of(true));
        }
        // a stopped cluster is never idle: it is said at once, naming the first process that exited
        long asked = System.nanoTime();
        assertThat(closed.awaitIdle(Duration.ofSeconds(30)))
                .hasValueSatisfying(reason ->
                        assertThat(reason).startsWith("the master (pid " + pids.get(0) + ") exited; its log is "));
        assertThat(System.nanoTime() - asked).isLessThan(Duration.ofSeconds(10).toNanos());
    }
}
