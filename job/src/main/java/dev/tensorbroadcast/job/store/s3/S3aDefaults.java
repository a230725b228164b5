package dev.tensorbroadcast.job.store.s3;

import java.util.Arrays;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * The S3A settings tensor-broadcast sets where the user has not: each applies to an {@code s3a://} file system only,
 * and a value the user gave (a {@code --conf spark.hadoop.fs.s3a.*}, a {@code core-site.xml}) is never replaced;
 * Hadoop's own defaults ({@code core-default.xml}) are. They are applied to every configuration an {@code s3a://}
 * file system of ours is made from: Hadoop keeps one file system per bucket and JVM, made with the settings of the
 * first caller, so they must be in place before the first ({@code store.Locations}, through {@link S3Store}), and in the job's own (the tasks').
 * Why each is set: docs/architecture.md, "S3A settings we set".
 */
public final class S3aDefaults {
    static final String CREDENTIALS_PROVIDER = "fs.s3a.aws.credentials.provider";
    /**
     * The AWS profile as the AWS SDK reads it ({@code AWS_PROFILE}, {@code ~/.aws/credentials} and {@code config}),
     * which Hadoop's own chain leaves out: the SDK's provider, which passes to the next where there is no profile
     * file, not Hadoop's, which fails the file system then.
     */
    static final String PROFILE_PROVIDER = "software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider";

    /**
     * The settings. The magic committer's tasks keep their pending uploads in memory and hand them to the driver
     * (see {@code commit.MagicCommitter}) rather than write two objects per file and read them back. A file's
     * parts are buffered off the heap, not in a local file written and read back (Hadoop's {@code disk}), in
     * parts of 32 MiB, two of them uploading while the next fills: at most 96 MiB per writing task, where Hadoop's
     * 64 MiB parts, four uploading, would hold 320 MiB in memory (docs/benchmarks.md, issue 26's upload). The
     * credentials: Hadoop's chain with the AWS profile ({@code ~/.aws/credentials}, {@code AWS_PROFILE}) after the
     * environment variables and before the instance's role, where the AWS SDK's own chain has it. The file system
     * is not closed by Hadoop's shutdown hook ({@code fs.automatic.close}): after Ctrl-C or SIGTERM the job's abort
     * and the release of the output's lock still go through it, and with the hook they failed on a closed file
     * system and left the lock and the staging behind (the fault soak, issue 40).
     */
    static final Map<String, String> SETTINGS = Map.of(
            "fs.automatic.close",
            "false",
            "fs.s3a.committer.magic.track.commits.in.memory.enabled",
            "true",
            "fs.s3a.fast.upload.buffer",
            "bytebuffer",
            "fs.s3a.multipart.size",
            "32M",
            "fs.s3a.fast.upload.active.blocks",
            "2",
            CREDENTIALS_PROVIDER,
            String.join(
                    ",",
                    "org.apache.hadoop.fs.s3a.TemporaryAWSCredentialsProvider",
                    "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider",
                    "software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider",
                    PROFILE_PROVIDER,
                    "org.apache.hadoop.fs.s3a.auth.IAMInstanceCredentialsProvider"));

    private S3aDefaults() {}

    /** {@code conf} with the settings the user left to Hadoop's defaults set to ours (a copy where any is). */
    public static Configuration apply(Configuration conf) {
        Configuration applied = null;
        for (Map.Entry<String, String> setting : SETTINGS.entrySet()) {
            if (!setting.getValue().equals(conf.get(setting.getKey())) && !userSet(conf, setting.getKey())) {
                if (applied == null) {
                    applied = new Configuration(conf);
                }
                applied.set(setting.getKey(), setting.getValue(), "tensor-broadcast");
            }
        }
        return applied == null ? conf : applied;
    }

    /** Set by anything but Hadoop's defaults file (or by us). */
    private static boolean userSet(Configuration conf, String key) {
        if (conf.get(key) == null) {
            return false;
        }
        String[] sources = conf.getPropertySources(key);
        return sources == null
                || Arrays.stream(sources)
                        .anyMatch(source -> !source.equals("core-default.xml") && !source.equals("tensor-broadcast"));
    }
}
