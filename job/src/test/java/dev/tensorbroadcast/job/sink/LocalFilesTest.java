package dev.tensorbroadcast.job.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files made as Hadoop's raw local file system makes them: the same permissions, their directories too. */
class LocalFilesTest {
    @TempDir
    Path dir;

    private static String permissions(Path path) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }

    @Test
    void newFilesGetThePermissionsHadoopGives() throws Exception {
        for (String umask : new String[] {"022", "027", "077"}) {
            Configuration conf = new Configuration(false);
            conf.set("fs.permissions.umask-mode", umask);
            Path ours = dir.resolve("ours-" + umask).resolve("a/part-0.parquet");
            Path hadoops = dir.resolve("hadoop-" + umask).resolve("a/part-0.parquet");

            try (OutputStream out = LocalFiles.create(ours, conf)) {
                out.write("ours".getBytes(StandardCharsets.UTF_8));
            }
            try (FileSystem hadoop = new RawLocalFileSystem()) {
                hadoop.initialize(java.net.URI.create("file:///"), conf);
                hadoop.create(new org.apache.hadoop.fs.Path(hadoops.toUri()), false)
                        .close();
            }

            assertThat(Files.readString(ours)).isEqualTo("ours");
            assertThat(permissions(ours)).as(umask).isEqualTo(permissions(hadoops));
            assertThat(permissions(ours.getParent())).as(umask).isEqualTo(permissions(hadoops.getParent()));
        }
        assertThat(permissions(dir.resolve("ours-027/a/part-0.parquet"))).isEqualTo("rw-r-----");
    }

    @Test
    void anExistingFileIsNeitherReplacedNorChanged() throws Exception {
        Path file = Files.writeString(dir.resolve("f"), "theirs");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));

        assertThatThrownBy(() -> LocalFiles.create(file, new Configuration(false)))
                .isInstanceOf(FileAlreadyExistsException.class)
                .hasMessageContaining(file.toString());

        assertThat(Files.readString(file)).isEqualTo("theirs");
        assertThat(permissions(file)).isEqualTo("rw-------");
    }
}
