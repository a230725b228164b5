package dev.tensorbroadcast.localcluster.container;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.localcluster.ClusterSecret;
import dev.tensorbroadcast.localcluster.MasterStatus;
import dev.tensorbroadcast.localcluster.junit.RequiresDocker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;

/** A two-worker container cluster: workers on their own hosts, the secret private, a dead worker noticed. */
@RequiresDocker
class ContainerClusterIT {
    @Test
    void startsWorkersThatRegisterAndNoticesOneDying() throws Exception {
        Path propertiesFile;
        String id;
        try (ContainerCluster cluster = ContainerCluster.builder().workers(2).start()) {
            id = cluster.id();
            propertiesFile = cluster.secretFile();
            MasterStatus status = cluster.status();
            assertThat(status.status()).isEqualTo("ALIVE");
            assertThat(status.aliveWorkers()).isEqualTo(2);
            assertThat(cluster.masterUrl()).isEqualTo("spark://master:7077");
            assertThat(cluster.workers()).isEqualTo(2);
            assertThat(cluster.hdfsUri()).isEmpty();
            assertThat(cluster.sparkConf())
                    .containsEntry("spark.master", "spark://master:7077")
                    .containsEntry("spark.authenticate", "true")
                    .containsEntry("spark.authenticate.secret", ClusterSecret.read(propertiesFile));
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(propertiesFile)))
                    .isEqualTo("rw-------");
            assertThat(Files.readString(propertiesFile))
                    .contains(
                            "spark.authenticate=true\n",
                            "spark.master.rest.enabled=false\n",
                            "spark.port.maxRetries=0\n")
                    .containsPattern("spark.authenticate.secret=[0-9a-f]{64}\n");
            assertThat(containers(id)).isEqualTo(3);

            cluster.killWorker(0);
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (cluster.status().aliveWorkers() > 1 && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            assertThat(cluster.status().aliveWorkers()).isEqualTo(1);
        }
        assertThat(propertiesFile).doesNotExist();
        assertThat(propertiesFile.getParent()).doesNotExist();
        assertThat(containers(id)).isZero();
        assertThat(DockerClientFactory.instance().client().listNetworksCmd().exec())
                .noneMatch(network -> id.equals(network.getLabels().get(ContainerCluster.CLUSTER_LABEL)));
    }

    private static int containers(String clusterId) {
        return DockerClientFactory.instance()
                .client()
                .listContainersCmd()
                .withShowAll(true)
                .withLabelFilter(java.util.Map.of(ContainerCluster.CLUSTER_LABEL, clusterId))
                .exec()
                .size();
    }
}
