package dev.tensorbroadcast.job.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** HDFS's settings: Hadoop's shutdown hook leaves the file system open, unless the user said otherwise. */
class HadoopStoreTest {
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
}
