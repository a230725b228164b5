package dev.tensorbroadcast.job.store.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.store.Stores;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/** Our S3A settings fill in what the user left to Hadoop's defaults, and only that, and only for s3a://. */
class S3aDefaultsTest {
    private static final String IN_MEMORY = "fs.s3a.committer.magic.track.commits.in.memory.enabled";

    @Test
    void setsOursWhereTheUserGaveNothingAndLeavesTheGivenConfigurationAlone() {
        Configuration given = new Configuration();

        Configuration applied = S3aDefaults.apply(given);

        assertThat(S3aDefaults.SETTINGS).containsEntry(IN_MEMORY, "true");
        S3aDefaults.SETTINGS.forEach(
                (key, value) -> assertThat(applied.get(key)).as(key).isEqualTo(value));
        assertThat(given.get(IN_MEMORY)).isNull();
        // applying twice changes nothing: ours count as ours, not as the user's
        assertThat(S3aDefaults.apply(applied)).isSameAs(applied);
    }

    @Test
    void replacesHadoopsDefaultsButNeverTheUsersValue() {
        Configuration conf = new Configuration();
        assertThat(conf.getPropertySources("fs.s3a.fast.upload.buffer")).containsExactly("core-default.xml");
        conf.set(IN_MEMORY, "false");

        Configuration applied = S3aDefaults.apply(conf);

        assertThat(applied.get(IN_MEMORY)).isEqualTo("false");
        S3aDefaults.SETTINGS.forEach((key, value) -> {
            if (!key.equals(IN_MEMORY)) {
                assertThat(applied.get(key)).as(key).isEqualTo(value);
            }
        });
    }

    /** The AWS profile joins Hadoop's chain where the AWS SDK's own has it: after the variables, before the role. */
    @Test
    void theCredentialChainIsHadoopsWithTheProfile() {
        Configuration conf = new Configuration();
        List<String> hadoops = Arrays.asList(conf.getTrimmedStrings(S3aDefaults.CREDENTIALS_PROVIDER));
        assertThat(hadoops)
                .doesNotContain(S3aDefaults.PROFILE_PROVIDER)
                .endsWith("org.apache.hadoop.fs.s3a.auth.IAMInstanceCredentialsProvider");

        List<String> ours = Arrays.asList(S3aDefaults.apply(conf).getTrimmedStrings(S3aDefaults.CREDENTIALS_PROVIDER));

        List<String> expected = new ArrayList<>(hadoops);
        expected.add(hadoops.size() - 1, S3aDefaults.PROFILE_PROVIDER);
        assertThat(ours).isEqualTo(expected);
        conf.set(S3aDefaults.CREDENTIALS_PROVIDER, "org.apache.hadoop.fs.s3a.AnonymousAWSCredentialsProvider");
        assertThat(S3aDefaults.apply(conf).get(S3aDefaults.CREDENTIALS_PROVIDER))
                .isEqualTo("org.apache.hadoop.fs.s3a.AnonymousAWSCredentialsProvider");
    }

    @Test
    void onlyAnS3aPathGetsThem() {
        Configuration conf = new Configuration();

        // HDFS's store has a setting of its own (HadoopStoreTest), none of S3A's
        assertThat(Stores.forPath(new Path("hdfs://namenode/out"))
                        .settings(conf)
                        .get(IN_MEMORY))
                .isNull();
        assertThat(Stores.forPath(new Path("/tmp/out")).settings(conf)).isSameAs(conf);
        assertThat(Stores.forPath(new Path("s3a://bucket/out")).settings(conf).get(IN_MEMORY))
                .isEqualTo("true");
    }
}
