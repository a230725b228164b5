package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.localcluster.ClusterStateDirectory;
import dev.tensorbroadcast.localcluster.junit.WithS3Server;
import dev.tensorbroadcast.localcluster.s3.S3Server;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An S3 reached as a Spark user reaches it, with no {@code --conf} and no local cluster running: the AWS environment
 * variables; a {@code core-site.xml} in {@code HADOOP_CONF_DIR}; the AWS profile (the keys in
 * {@code ~/.aws/credentials}, the endpoint in {@code core-site.xml}); and {@code --conf} over them. The S3 server is
 * S3Proxy on 127.0.0.1, standing in for a real S3: nothing of it is recorded as a local cluster's.
 */
@WithS3Server
class S3UsualSettingsIT {
    /** What the machine's environment may hold that would decide the outcome instead of what each case sets. */
    private static final List<String> CLEARED = List.of(
            "AWS_ACCESS_KEY_ID",
            "AWS_SECRET_ACCESS_KEY",
            "AWS_SESSION_TOKEN",
            "AWS_ENDPOINT_URL",
            "AWS_REGION",
            "AWS_PROFILE",
            "AWS_SHARED_CREDENTIALS_FILE",
            "AWS_CONFIG_FILE",
            "HADOOP_CONF_DIR",
            "YARN_CONF_DIR");

    @TempDir
    Path dir;

    private record Run(String name, Process process, Path log) {
        String finished() throws Exception {
            assertThat(process.waitFor(300, TimeUnit.SECONDS))
                    .as("%s ended in time", name)
                    .isTrue();
            String output = CliProcess.read(log);
            assertThat(process.exitValue()).as("%s: %s", name, output).isZero();
            return output;
        }
    }

    /** The command line with {@code environment} only (and an empty home and cluster state), not the machine's. */
    private Run start(String name, Map<String, String> environment, String... arguments) throws Exception {
        Path home = Files.createDirectories(dir.resolve(name + "-home"));
        Path log = dir.resolve(name + ".log");
        ProcessBuilder builder = new ProcessBuilder(CliProcess.command(arguments))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        CLEARED.forEach(builder.environment()::remove);
        builder.environment().put("HOME", home.toString());
        builder.environment()
                .put(
                        ClusterStateDirectory.ENVIRONMENT,
                        dir.resolve("no-cluster").toString());
        builder.environment().putAll(environment);
        return new Run(name, builder.start(), log);
    }

    private String[] expand(Path source, String output, String... more) {
        List<String> arguments = new ArrayList<>(List.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "64,8",
                "--partitions",
                "2",
                "--output",
                output));
        arguments.addAll(List.of(more));
        return arguments.toArray(String[]::new);
    }

    private Path confDirectory(String name, Map<String, String> settings) throws Exception {
        Path conf = Files.createDirectories(dir.resolve(name));
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
        settings.forEach((key, value) -> xml.append("  <property><name>")
                .append(key)
                .append("</name><value>")
                .append(value)
                .append("</value></property>\n"));
        Files.writeString(conf.resolve("core-site.xml"), xml.append("</configuration>\n"));
        return conf;
    }

    @Test
    void theEnvironmentVariablesACoreSiteAndTheProfileEachReachIt(S3Server s3) throws Exception {
        Path source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 8});
        Map<String, String> aws = Map.of(
                "AWS_ACCESS_KEY_ID",
                s3.accessKey(),
                "AWS_SECRET_ACCESS_KEY",
                s3.secretKey(),
                "AWS_ENDPOINT_URL",
                s3.endpoint().toString(),
                "AWS_REGION",
                "us-east-1");
        // everything S3Proxy needs, keys included, as a cluster's core-site.xml holds it
        Path site = confDirectory("site-conf", s3.hadoopSettings());
        // the endpoint's settings only: the keys come from the profile
        Map<String, String> withoutKeys = new HashMap<>(s3.hadoopSettings());
        withoutKeys.remove("fs.s3a.access.key");
        withoutKeys.remove("fs.s3a.secret.key");
        Path endpointOnly = confDirectory("endpoint-conf", withoutKeys);
        Path credentials = Files.writeString(
                dir.resolve("credentials"),
                "[trial]\naws_access_key_id = " + s3.accessKey() + "\naws_secret_access_key = " + s3.secretKey()
                        + "\n");
        Map<String, String> profile = Map.of(
                "AWS_PROFILE",
                "trial",
                "AWS_SHARED_CREDENTIALS_FILE",
                credentials.toString(),
                "HADOOP_CONF_DIR",
                endpointOnly.toString());

        Run byEnvironment = start("environment", aws, expand(source, s3.uri("by-environment")));
        Run bySite = start(
                "core-site",
                Map.of("HADOOP_CONF_DIR", site.toString()),
                expand(source, s3.uri("by-core-site"), "--master", "local[2]"));
        Run byProfile = start("profile", profile, expand(source, s3.uri("by-profile")));
        assertThat(byEnvironment.finished()).contains("wrote " + s3.uri("by-environment"));
        assertThat(bySite.finished()).contains("wrote " + s3.uri("by-core-site"));
        assertThat(byProfile.finished()).contains("wrote " + s3.uri("by-profile"));

        // each reads what another wrote: the commands that start no Spark find the settings in the same places
        Run inspectByEnvironment = start("inspect-environment", aws, "inspect", s3.uri("by-core-site"), "--json");
        Run inspectByProfile = start("inspect-profile", profile, "inspect", s3.uri("by-environment"), "--json");
        assertThat(inspectByEnvironment.finished()).contains("\"rows\":64");
        assertThat(inspectByProfile.finished()).contains("\"rows\":64");
        assertThat(s3.bucketDirectory().resolve("by-profile").resolve("_SUCCESS"))
                .exists();
    }

    @Test
    void confWinsOverTheEnvironment(S3Server s3) throws Exception {
        Path source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 8});
        // right keys in the environment, a wrong secret given with --conf: the run uses the wrong one and says so
        Map<String, String> aws = Map.of(
                "AWS_ACCESS_KEY_ID",
                s3.accessKey(),
                "AWS_SECRET_ACCESS_KEY",
                s3.secretKey(),
                "AWS_ENDPOINT_URL",
                s3.endpoint().toString());

        Run refused = start(
                "conf-wins",
                aws,
                expand(source, s3.uri("conf-wins"), "--conf", "spark.hadoop.fs.s3a.secret.key=not-the-secret"));

        assertThat(refused.process().waitFor(300, TimeUnit.SECONDS)).isTrue();
        String output = CliProcess.read(refused.log());
        assertThat(refused.process().exitValue()).as(output).isEqualTo(2);
        assertThat(output)
                .contains("403 Forbidden")
                .doesNotContain("not-the-secret")
                .doesNotContain(s3.secretKey());
        assertThat(s3.bucketDirectory().resolve("conf-wins")).doesNotExist();
    }
}
