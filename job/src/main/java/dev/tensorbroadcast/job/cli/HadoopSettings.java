package dev.tensorbroadcast.job.cli;

import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.classic.SparkSession;

/**
 * The Hadoop configuration of the checks a command makes before Spark starts (and of the commands that start no
 * Spark): the {@code spark.hadoop.*} settings Spark would give its own, so an {@code s3a://} location is reached with
 * the same endpoint and credentials before the job as in it. Values are never printed: they may be secrets.
 */
final class HadoopSettings {
    private static final String PREFIX = "spark.hadoop.";

    private HadoopSettings() {}

    /**
     * Hadoop's defaults (its {@code core-site.xml} on the class path), then {@code spark.hadoop.*} of the running
     * application when there is one, else the site files of {@code HADOOP_CONF_DIR} and the AWS environment variables
     * ({@link EnvironmentSettings}) and the system properties spark-submit sets, then those of {@code conf}
     * ({@code --conf}) over the settings of the local cluster's S3 server when one runs ({@link LocalS3Settings}).
     */
    static Configuration configuration(Map<String, String> conf) {
        var existing = SparkSessions.mayRun() ? SparkSessions.running() : Optional.<SparkSession>empty();
        Configuration configuration = existing.isPresent()
                ? new Configuration(existing.get().sparkContext().hadoopConfiguration())
                : new Configuration();
        if (existing.isEmpty()) {
            EnvironmentSettings.ofProcess().applyTo(configuration);
            // what new SparkConf() would hold: spark.* system properties (spark-submit's), read without loading Spark
            Properties properties = System.getProperties();
            for (String key : properties.stringPropertyNames()) {
                if (key.startsWith(PREFIX) && key.length() > PREFIX.length()) {
                    configuration.set(key.substring(PREFIX.length()), properties.getProperty(key));
                }
            }
        }
        // the running local cluster's S3 server, for its bucket, under --conf
        LocalS3Settings.under(conf).forEach((key, value) -> {
            if (key.startsWith(PREFIX)) {
                configuration.set(key.substring(PREFIX.length()), value);
            }
        });
        return configuration;
    }
}
