package dev.tensorbroadcast.job.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Directories made as Hadoop's local file system makes them: the same permissions, existing ones left alone. */
class LocalDirectoriesTest {
    @TempDir
    Path dir;

    private static String permissions(Path path) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }

    @Test
    void newDirectoriesGetThePermissionsHadoopGives() throws Exception {
        for (String umask : new String[] {"022", "027", "077"}) {
            Configuration conf = new Configuration(false);
            conf.set("fs.permissions.umask-mode", umask);
            Path ours = dir.resolve("ours-" + umask).resolve("a/b");
            Path hadoops = dir.resolve("hadoop-" + umask).resolve("a/b");

            assertThat(LocalDirectories.create(ours, conf)).isTrue();
            // a new instance: a cached one keeps the umask of the configuration it was first made with
            try (FileSystem hadoop = FileSystem.newInstanceLocal(conf)) {
                hadoop.mkdirs(new org.apache.hadoop.fs.Path(hadoops.toUri()));
            }

            assertThat(permissions(ours)).as(umask).isEqualTo(permissions(hadoops));
            assertThat(permissions(ours.getParent())).as(umask).isEqualTo(permissions(hadoops.getParent()));
        }
        assertThat(permissions(dir.resolve("ours-027/a/b"))).isEqualTo("rwxr-x---");
    }

    @Test
    void existingDirectoriesAreLeftAsTheyAre() throws Exception {
        Path existing = Files.createDirectories(dir.resolve("x"));
        Files.setPosixFilePermissions(existing, PosixFilePermissions.fromString("rwx------"));

        assertThat(LocalDirectories.create(existing, new Configuration(false))).isFalse();
        assertThat(LocalDirectories.create(existing.resolve("y"), new Configuration(false)))
                .isTrue();

        assertThat(permissions(existing)).isEqualTo("rwx------");
        assertThat(permissions(existing.resolve("y"))).isEqualTo("rwxr-xr-x");
    }

    @Test
    void aFileInTheWayIsReported() throws Exception {
        Path file = Files.writeString(dir.resolve("f"), "x");

        assertThatThrownBy(() -> LocalDirectories.create(file.resolve("y"), new Configuration(false)))
                .isInstanceOf(java.nio.file.FileSystemException.class)
                .hasMessageContaining(file.toString());
        assertThat(Files.readString(file)).isEqualTo("x");
    }
}
