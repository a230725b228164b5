package dev.tensorbroadcast.job.cli;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;

/**
 * The Hadoop settings a Spark user has outside any command line, found where Spark finds them:
 * <ul>
 *   <li>the site files of {@code HADOOP_CONF_DIR} and {@code YARN_CONF_DIR} ({@code core-site.xml} with S3A's
 *       settings, {@code hdfs-site.xml}, {@code yarn-site.xml}): spark-submit's launcher puts those directories on
 *       the driver's class path, where Hadoop reads them; the command line's JVM is started by plain {@code java},
 *       so it reads them itself (a file the class path already holds, as under spark-submit, is left to Hadoop);
 *   <li>the AWS environment variables Spark maps to S3A's settings when it makes a Hadoop configuration
 *       ({@code SparkHadoopUtil}): {@code AWS_ACCESS_KEY_ID} and {@code AWS_SECRET_ACCESS_KEY}, with
 *       {@code AWS_SESSION_TOKEN} and {@code AWS_ENDPOINT_URL} when set; and {@code AWS_REGION} as the endpoint's
 *       region, since S3A consults the SDK's region chain only when no endpoint is set.
 * </ul>
 * The environment variables win over the site files, as in Spark; both are under {@code spark.hadoop.*} given to
 * spark-submit or with {@code --conf}. S3A itself reads the AWS environment variables and, with the credential chain
 * {@code store.s3.S3aDefaults} sets, the AWS profile ({@code ~/.aws/credentials}, {@code AWS_PROFILE}).
 */
final class EnvironmentSettings {
    private static final String PREFIX = "spark.hadoop.";
    /** The site files spark-submit's class path gives Hadoop, in the order Hadoop reads them. */
    private static final List<String> SITE_FILES = List.of("core-site.xml", "hdfs-site.xml", "yarn-site.xml");

    private static final List<String> CONF_DIRECTORIES = List.of("HADOOP_CONF_DIR", "YARN_CONF_DIR");

    private final Function<String, String> environment;

    EnvironmentSettings(Function<String, String> environment) {
        this.environment = environment;
    }

    /** The settings of this process's environment. */
    static EnvironmentSettings ofProcess() {
        return new EnvironmentSettings(System::getenv);
    }

    /**
     * The settings of the site files in the configuration directories, by key, those of a later file over an
     * earlier one's; a file the class path holds already is skipped (Hadoop reads it there).
     */
    Map<String, String> siteFiles() {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String variable : CONF_DIRECTORIES) {
            String directory = environment.apply(variable);
            if (directory == null || directory.isBlank()) {
                continue;
            }
            for (String name : SITE_FILES) {
                Path file = Path.of(directory, name);
                if (Files.isRegularFile(file) && !onClassPath(name, file)) {
                    Configuration site = new Configuration(false);
                    site.addResource(new org.apache.hadoop.fs.Path(file.toUri()));
                    site.forEach(entry -> settings.put(entry.getKey(), entry.getValue()));
                }
            }
        }
        return settings;
    }

    /** The S3A settings Spark takes from the AWS environment variables; none without both keys. */
    Map<String, String> aws() {
        Map<String, String> settings = new LinkedHashMap<>();
        String key = environment.apply("AWS_ACCESS_KEY_ID");
        String secret = environment.apply("AWS_SECRET_ACCESS_KEY");
        if (key == null || secret == null) {
            return settings;
        }
        settings.put("fs.s3a.access.key", key);
        settings.put("fs.s3a.secret.key", secret);
        String token = environment.apply("AWS_SESSION_TOKEN");
        if (token != null) {
            settings.put("fs.s3a.session.token", token);
        }
        String endpoint = environment.apply("AWS_ENDPOINT_URL");
        if (endpoint != null) {
            settings.put("fs.s3a.endpoint", endpoint);
            String region = environment.apply("AWS_REGION");
            if (region != null && !region.isBlank()) {
                settings.put("fs.s3a.endpoint.region", region);
            }
        }
        return settings;
    }

    /**
     * {@code conf} over these settings, as {@code spark.hadoop.*}, for a Spark session this command starts: the site
     * files only, since Spark maps the AWS variables itself and over the site files (its own order), and nothing that
     * spark-submit's properties or the master's settings ({@code set}, Spark keys) already set.
     */
    Map<String, String> underForSpark(Map<String, String> conf, Set<String> set) {
        Map<String, String> aws = aws();
        Map<String, String> merged = new LinkedHashMap<>();
        siteFiles().forEach((key, value) -> {
            if (!aws.containsKey(key) && System.getProperty(PREFIX + key) == null && !set.contains(PREFIX + key)) {
                merged.put(PREFIX + key, value);
            }
        });
        merged.putAll(conf);
        return merged;
    }

    /** The site files' settings, then the AWS variables', into {@code configuration}: what Spark's would hold. */
    void applyTo(Configuration configuration) {
        siteFiles().forEach((key, value) -> configuration.set(key, value, "HADOOP_CONF_DIR"));
        aws().forEach((key, value) -> configuration.set(key, value, "AWS environment variables"));
    }

    private static boolean onClassPath(String name, Path file) {
        URL resource = Configuration.class.getClassLoader().getResource(name);
        if (resource == null) {
            return false;
        }
        try {
            return Files.isSameFile(Path.of(resource.toURI()), file);
        } catch (IOException | URISyntaxException | IllegalArgumentException | FileSystemNotFoundException e) {
            // a resource that is no readable file cannot be the directory's
            return false;
        }
    }
}
