package dev.tensorbroadcast.localcluster.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;

class ClusterSecretTest {
    @Test
    void writesAFreshSecretOnlyItsOwnerCanRead() throws Exception {
        Path first = ClusterSecret.writePropertiesFile();
        Path second = ClusterSecret.writePropertiesFile();
        try {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(first))).isEqualTo("rw-------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(first.getParent())))
                    .isEqualTo("rwx------");
            String properties = Files.readString(first);
            assertThat(properties).matches("spark.authenticate=true\\nspark.authenticate.secret=[0-9a-f]{64}\\n"
                    + "spark.master.rest.enabled=false\\n");
            assertThat(Files.readString(second)).isNotEqualTo(properties);
        } finally {
            ClusterSecret.delete(first);
            ClusterSecret.delete(second);
        }
        assertThat(first.getParent()).doesNotExist();
        assertThat(second).doesNotExist();
    }
}
