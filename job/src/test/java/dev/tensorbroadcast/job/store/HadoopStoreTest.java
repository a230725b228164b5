package dev.tensorbroadcast.job.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HDFS's settings: Hadoop's shutdown hook leaves the file system open, unless the user said otherwise. Its exclusive
 * create: staged under a name of its own, renamed into place, a killed creator's staged copy deleted by the winner
 * (here on the local file system, whose rename would replace a target: HDFS's refusal is ClusterHdfsIT's).
 */
class HadoopStoreTest {
    @TempDir
    java.nio.file.Path dir;

    @Test
    void theShutdownHookDoesNotCloseTheFileSystemUnlessTheUserSaidSo() {
        Configuration given = new Configuration();
        assertThat(given.get(HadoopStore.AUTOMATIC_CLOSE)).isEqualTo("true");

        Configuration applied = new HadoopStore().settings(given);

        assertThat(applied.get(HadoopStore.AUTOMATIC_CLOSE)).isEqualTo("false");
        assertThat(given.get(HadoopStore.AUTOMATIC_CLOSE)).isEqualTo("true");
        assertThat(new HadoopStore().settings(applied)).isSameAs(applied);

        Configuration users = new Configuration();
        users.set(HadoopStore.AUTOMATIC_CLOSE, "true");
        assertThat(new HadoopStore().settings(users).get(HadoopStore.AUTOMATIC_CLOSE))
                .isEqualTo("true");
    }

    @Test
    void aStagedCopyIsNamedAfterItsFileAndKnownByItsName() {
        String copy = Store.stagedCopy("_tensor-broadcast.lock", 0x1234abcdL);

        assertThat(copy).isEqualTo("_tensor-broadcast.lock.000000001234abcd.staged");
        assertThat(Store.isStagedCopy(copy, "_tensor-broadcast.lock")).isTrue();
        assertThat(Store.isStagedCopy(Store.stagedCopy("_tensor-broadcast.lock", -1L), "_tensor-broadcast.lock"))
                .isTrue();
        assertThat(Store.isStagedCopy(copy, "_manifest.json")).isFalse();
        assertThat(Store.isStagedCopy("_tensor-broadcast.lock.staged", "_tensor-broadcast.lock"))
                .isFalse();
        assertThat(Store.isStagedCopy("_tensor-broadcast.lock.000000001234abcg.staged", "_tensor-broadcast.lock"))
                .isFalse();
        assertThat(Store.isStagedCopy("_tensor-broadcast.lock", "_tensor-broadcast.lock"))
                .isFalse();
    }

    @Test
    void anExclusiveCreateStagesRenamesAndDeletesAKilledCreatorsCopy() throws Exception {
        FileSystem fileSystem = FileSystem.getLocal(new Configuration()).getRawFileSystem();
        Path lock = new Path(dir.toUri().toString(), "_tensor-broadcast.lock");
        String left = Store.stagedCopy(lock.getName(), 42L);
        Files.writeString(dir.resolve(left), "process 1 on host gone since 1970-01-01T00:00:00Z\n");
        List<List<String>> whileStaged = new ArrayList<>();

        boolean created = new HadoopStore()
                .createExclusive(fileSystem, lock, "first\n".getBytes(UTF_8), () -> whileStaged.add(names()));

        assertThat(created).isTrue();
        // the owner line whole under a name of this creator's, the lock not yet there
        assertThat(whileStaged)
                .singleElement()
                .satisfies(names -> assertThat(names)
                        .hasSize(2)
                        .contains(left)
                        .doesNotContain(lock.getName())
                        .allMatch(name -> Store.isStagedCopy(name, lock.getName())));
        assertThat(names()).containsExactly(lock.getName());
        assertThat(Files.readString(dir.resolve(lock.getName()))).isEqualTo("first\n");

        List<String> staged = new ArrayList<>();
        assertThat(new HadoopStore()
                        .createExclusive(fileSystem, lock, "second\n".getBytes(UTF_8), () -> staged.add("staged")))
                .isFalse();
        assertThat(staged).isEmpty();
        assertThat(names()).containsExactly(lock.getName());
        assertThat(Files.readString(dir.resolve(lock.getName()))).isEqualTo("first\n");
    }

    private List<String> names() {
        try (var entries = Files.list(dir)) {
            return entries.map(path -> path.getFileName().toString()).sorted().toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
