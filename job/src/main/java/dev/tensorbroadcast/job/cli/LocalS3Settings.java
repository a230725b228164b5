package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.localcluster.ClusterState;
import dev.tensorbroadcast.localcluster.ClusterStateDirectory;
import dev.tensorbroadcast.localcluster.s3.S3Server;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The S3 server of the running local cluster ({@code cluster start --s3}), found as {@code --master local-cluster}
 * finds the cluster: from the state it recorded. Its endpoint and keys become settings of its bucket alone
 * ({@code fs.s3a.bucket.<bucket>.*}), so {@code s3a://} paths of that bucket need no {@code --conf} while it runs,
 * and any other bucket keeps S3A's own chain (the AWS environment variables, {@code core-site.xml}, instance roles).
 * A setting given for that option, for every bucket or for this one, is the user's and wins: a per-bucket default
 * would otherwise override a global {@code --conf}.
 */
final class LocalS3Settings {
    private static final String PREFIX = "spark.hadoop.fs.s3a.";

    private LocalS3Settings() {}

    /** {@code conf} ({@code --conf}) over the running local S3 server's settings; {@code conf} itself when none runs. */
    static Map<String, String> under(Map<String, String> conf) {
        Optional<ClusterState.S3> s3 = running();
        if (s3.isEmpty()) {
            return conf;
        }
        Map<String, String> merged = new LinkedHashMap<>();
        String bucket = s3.get().bucket();
        settings(s3.get()).forEach((option, value) -> {
            if (!conf.containsKey(PREFIX + option) && !conf.containsKey(PREFIX + "bucket." + bucket + "." + option)) {
                merged.put(PREFIX + "bucket." + bucket + "." + option, value);
            }
        });
        merged.putAll(conf);
        return merged;
    }

    /** The server's S3A options (without their {@code fs.s3a.} prefix), its secret key read from its file. */
    static Map<String, String> settings(ClusterState.S3 s3) {
        Map<String, String> options = new LinkedHashMap<>();
        S3Server.hadoopSettingsWithoutKeys(URI.create(s3.endpoint()))
                .forEach((key, value) -> options.put(key.substring("fs.s3a.".length()), value));
        options.put("access.key", s3.accessKey());
        try {
            options.put(
                    "secret.key",
                    Files.readString(Path.of(s3.secretKeyFile()), StandardCharsets.UTF_8)
                            .strip());
        } catch (IOException e) {
            // without its secret the server refuses every request; S3A's own error then says which key it used
        }
        return options;
    }

    private static Optional<ClusterState.S3> running() {
        try {
            return ClusterStateDirectory.locate()
                    .read()
                    .filter(state -> state.owner().live().isPresent())
                    .flatMap(ClusterState::s3);
        } catch (RuntimeException e) {
            // a state that cannot be read is cluster status's to report; a job without it needs --conf as before
            return Optional.empty();
        }
    }
}
