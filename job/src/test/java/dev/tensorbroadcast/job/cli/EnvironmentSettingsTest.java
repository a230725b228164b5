package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where Spark finds Hadoop's settings outside the command line, in Spark's order, under what the user gave. */
class EnvironmentSettingsTest {
    @TempDir
    Path dir;

    private Path site(String name, String key, String value) throws Exception {
        Path conf = Files.createDirectories(dir.resolve(name));
        Files.writeString(
                conf.resolve("core-site.xml"),
                "<?xml version=\"1.0\"?>\n<configuration><property><name>" + key + "</name><value>" + value
                        + "</value></property></configuration>\n");
        return conf;
    }

    @Test
    void theKeysAreSparksMappingAndNeedBoth() {
        assertThat(new EnvironmentSettings(Map.of("AWS_ACCESS_KEY_ID", "id", "AWS_ENDPOINT_URL", "http://e")::get)
                        .aws())
                .isEmpty();
        assertThat(new EnvironmentSettings(Map.of(
                                "AWS_ACCESS_KEY_ID",
                                "id",
                                "AWS_SECRET_ACCESS_KEY",
                                "s",
                                "AWS_SESSION_TOKEN",
                                "t",
                                "AWS_ENDPOINT_URL",
                                "http://e",
                                "AWS_REGION",
                                "eu-west-1")::get)
                        .aws())
                .containsExactly(
                        Map.entry("fs.s3a.access.key", "id"),
                        Map.entry("fs.s3a.secret.key", "s"),
                        Map.entry("fs.s3a.session.token", "t"),
                        Map.entry("fs.s3a.endpoint", "http://e"),
                        Map.entry("fs.s3a.endpoint.region", "eu-west-1"));
        // no endpoint: S3A asks the SDK's region chain, which reads AWS_REGION itself
        assertThat(
                        new EnvironmentSettings(Map.of(
                                        "AWS_ACCESS_KEY_ID",
                                        "id",
                                        "AWS_SECRET_ACCESS_KEY",
                                        "s",
                                        "AWS_REGION",
                                        "eu-west-1")::get)
                                .aws())
                .doesNotContainKey("fs.s3a.endpoint.region");
    }

    @Test
    void theSiteFilesOfBothDirectoriesTheLaterWinning() throws Exception {
        Path hadoop = site("hadoop", "fs.s3a.endpoint", "http://hadoop");
        Path yarn = site("yarn", "fs.s3a.endpoint", "http://yarn");

        assertThat(new EnvironmentSettings(Map.of("HADOOP_CONF_DIR", hadoop.toString())::get).siteFiles())
                .containsEntry("fs.s3a.endpoint", "http://hadoop");
        assertThat(new EnvironmentSettings(
                                Map.of("HADOOP_CONF_DIR", hadoop.toString(), "YARN_CONF_DIR", yarn.toString())::get)
                        .siteFiles())
                .containsEntry("fs.s3a.endpoint", "http://yarn");
        assertThat(new EnvironmentSettings(
                                Map.of("HADOOP_CONF_DIR", dir.resolve("none").toString())::get)
                        .siteFiles())
                .isEmpty();
    }

    @Test
    void forSparkTheSiteFilesGoUnderTheVariablesTheMastersAndConf() throws Exception {
        Path conf = Files.createDirectories(dir.resolve("conf"));
        Files.writeString(
                conf.resolve("core-site.xml"),
                "<?xml version=\"1.0\"?>\n<configuration>"
                        + "<property><name>fs.s3a.endpoint</name><value>http://site</value></property>"
                        + "<property><name>fs.s3a.access.key</name><value>site-key</value></property>"
                        + "<property><name>fs.defaultFS</name><value>hdfs://site</value></property>"
                        + "<property><name>fs.s3a.path.style.access</name><value>true</value></property>"
                        + "</configuration>\n");
        EnvironmentSettings settings = new EnvironmentSettings(Map.of(
                "HADOOP_CONF_DIR",
                conf.toString(),
                "AWS_ACCESS_KEY_ID",
                "env-key",
                "AWS_SECRET_ACCESS_KEY",
                "env-secret")::get);

        Map<String, String> merged = settings.underForSpark(
                Map.of("spark.hadoop.fs.s3a.path.style.access", "false"), Set.of("spark.hadoop.fs.defaultFS"));

        // Spark maps the variables itself, over the site files; the master's and --conf win
        assertThat(merged)
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "spark.hadoop.fs.s3a.endpoint",
                        "http://site",
                        "spark.hadoop.fs.s3a.path.style.access",
                        "false"));
        Configuration hadoop = new Configuration(false);
        settings.applyTo(hadoop);
        assertThat(hadoop.get("fs.s3a.access.key")).isEqualTo("env-key");
        assertThat(hadoop.get("fs.defaultFS")).isEqualTo("hdfs://site");
    }
}
