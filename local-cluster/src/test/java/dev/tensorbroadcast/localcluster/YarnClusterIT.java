package dev.tensorbroadcast.localcluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A YARN cluster of two NodeManagers with HDFS, as processes on this machine: what it reports, the settings it
 * writes for clients, its ports on loopback, a NodeManager stopped, and close stopping every process.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class YarnClusterIT {
    private static YarnCluster cluster;
    private static double startSeconds;

    @BeforeAll
    static void start() {
        long start = System.nanoTime();
        cluster = YarnCluster.builder(SparkHome.locate())
                .nodeManagers(2)
                .hdfs(true)
                .start();
        startSeconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("YARN (2 NodeManagers) and HDFS started in %.1f s%n", startSeconds);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void theResourceManagerCountsBothNodeManagers() {
        MasterStatus status = cluster.status();
        assertThat(status.url()).isEqualTo("yarn");
        assertThat(status.status()).isEqualTo("STARTED");
        assertThat(status.aliveWorkers()).isEqualTo(2);
        assertThat(status.activeApplications()).isEmpty();
        assertThat(cluster.masterUrl()).isEqualTo("yarn");
        assertThat(cluster.workers()).isEqualTo(2);
        assertThat(cluster.exitedProcess()).isEmpty();
    }

    @Test
    @Order(1)
    void clientsFindTheResourceManagerAndHdfsInTheConfDirectory() throws IOException {
        Path conf = cluster.hadoopConfDir();
        assertThat(conf).isEqualTo(cluster.workDirectory().resolve("hadoop-conf"));
        assertThat(Files.readString(conf.resolve("core-site.xml"), StandardCharsets.UTF_8))
                .contains("<name>fs.defaultFS</name><value>" + cluster.hdfsUri().orElseThrow() + "</value>");
        String yarnSite = Files.readString(conf.resolve("yarn-site.xml"), StandardCharsets.UTF_8);
        assertThat(yarnSite)
                .containsPattern("<name>yarn.resourcemanager.address</name><value>localhost:[1-9]\\d*</value>")
                .contains("<name>yarn.scheduler.maximum-allocation-mb</name><value>2048</value>");
        assertThat(conf.resolve("hdfs-site.xml")).isRegularFile();
        assertThat(cluster.sparkConf())
                .containsEntry("spark.master", "yarn")
                .containsEntry("spark.submit.deployMode", "client")
                .containsEntry("spark.yarn.jars", "local:" + SparkHome.locate().jars() + "/*")
                .containsEntry("spark.executor.instances", "2")
                .containsEntry(
                        "spark.hadoop.fs.defaultFS",
                        cluster.hdfsUri().orElseThrow().toString())
                .containsEntry("spark.driver.host", "127.0.0.1")
                .containsKey("spark.hadoop.yarn.resourcemanager.scheduler.address")
                .doesNotContainKey("spark.authenticate.secret");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cluster.secretFile())))
                .isEqualTo("rw-------");
        assertThat(submitLine())
                .containsSubsequence(
                        "org.apache.spark.deploy.SparkSubmit",
                        "--master",
                        "yarn",
                        "--deploy-mode",
                        "cluster",
                        "--properties-file",
                        cluster.secretFile().toString(),
                        "--version");
        assertThat(cluster.submitEnvironment()).containsEntry("HADOOP_CONF_DIR", conf.toString());
    }

    @Test
    @Order(1)
    void everyPortIsOnLoopback() throws IOException {
        List<String> addresses = new ArrayList<>();
        for (long pid : cluster.pids()) {
            addresses.addAll(ListeningSockets.of(pid));
        }
        // the ResourceManager's RPC ports and web UI, each NodeManager's, the NameNode's and the DataNode's
        assertThat(addresses).hasSizeGreaterThanOrEqualTo(10).allMatch(ListeningSockets::isLoopback);
    }

    @Test
    @Order(2)
    void aStoppedNodeManagerLeavesTheCluster() throws Exception {
        List<String> nodes = cluster.runningNodeManagers();
        assertThat(nodes).hasSize(2).allMatch(node -> node.matches("localhost:\\d+"));
        cluster.stopNodeManager(nodes.get(0));
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (cluster.status().aliveWorkers() != 1 && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertThat(cluster.status().aliveWorkers()).isEqualTo(1);
        assertThat(cluster.runningNodeManagers()).containsExactly(nodes.get(1));
        assertThat(cluster.exitedProcess()).isEmpty();
    }

    @Test
    @Order(3)
    void closeStopsEveryProcess() {
        List<Long> pids = cluster.pids();
        assertThat(pids).hasSize(2);
        cluster.close();
        cluster.close();
        for (long pid : pids) {
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive))
                    .as("pid %d", pid)
                    .isNotEqualTo(Optional.of(true));
        }
        assertThat(cluster.workDirectory()).doesNotExist();
    }

    private static List<String> submitLine() {
        return cluster.sparkSubmit("cluster", List.of("--version"));
    }
}
