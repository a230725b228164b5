package dev.tensorbroadcast.localcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SparkHomeTest {
    @Test
    void theBuiltHomeHasSparkAndHdfsJars() {
        SparkHome home = SparkHome.locate();
        assertThat(home.jars()).isDirectory();
        assertThat(home.hdfsJars())
                .hasValueSatisfying(jars -> assertThat(jars.resolve("hadoop-client-minicluster-3.5.0.jar"))
                        .isRegularFile());
    }

    @Test
    void refusesADirectoryWithoutSparkCore(@TempDir Path dir) {
        assertThatThrownBy(() -> new SparkHome(dir))
                .isInstanceOf(LocalClusterException.class)
                .hasMessage("Cannot use Spark home '" + dir + "': " + dir.resolve("jars") + " holds no spark-core jar;"
                        + " build one with 'mvn -pl local-cluster -am package' (it lands in"
                        + " local-cluster/target/spark-home) or give a Spark 4.2 installation");
    }

    @Test
    void aClusterWithoutHdfsJarsCannotHaveHdfs(@TempDir Path dir) throws Exception {
        Path jars = java.nio.file.Files.createDirectories(dir.resolve("jars"));
        java.nio.file.Files.createFile(jars.resolve("spark-core_2.13-4.2.0.jar"));
        SparkHome bare = new SparkHome(dir);
        assertThat(bare.hdfsJars()).isEmpty();
        assertThatThrownBy(() -> ProcessCluster.builder(bare)
                        .hdfs(true)
                        .workDirectory(dir.resolve("work"))
                        .start())
                .isInstanceOf(LocalClusterException.class)
                .hasMessage("Cannot start HDFS: the Spark home '" + dir + "' has no hdfs-jars directory; use the one"
                        + " the build assembles at local-cluster/target/spark-home");
    }
}
