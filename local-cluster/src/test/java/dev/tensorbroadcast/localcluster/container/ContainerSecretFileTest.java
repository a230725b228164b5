package dev.tensorbroadcast.localcluster.container;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.localcluster.ClusterSecret;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ContainerSecretFileTest {
    private static Properties load(Path file) throws Exception {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        }
        return properties;
    }

    @Test
    void writesAFreshSecretOnlyItsOwnerCanRead() throws Exception {
        Path first = ContainerCluster.writeSecretFile();
        Path second = ContainerCluster.writeSecretFile();
        try {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(first)))
                    .isEqualTo("rw-------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(first.getParent())))
                    .isEqualTo("rwx------");
            Properties properties = load(first);
            assertThat(properties.stringPropertyNames())
                    .containsExactlyInAnyOrder(
                            "spark.authenticate",
                            "spark.authenticate.secret",
                            "spark.master.rest.enabled",
                            "spark.port.maxRetries");
            assertThat(properties.getProperty("spark.authenticate")).isEqualTo("true");
            assertThat(properties.getProperty("spark.master.rest.enabled")).isEqualTo("false");
            assertThat(ClusterSecret.read(first)).matches("[0-9a-f]{64}").isNotEqualTo(ClusterSecret.read(second));
        } finally {
            ContainerCluster.deleteSecretFile(first);
            ContainerCluster.deleteSecretFile(second);
        }
        assertThat(first.getParent()).doesNotExist();
        assertThat(second).doesNotExist();
    }
}
