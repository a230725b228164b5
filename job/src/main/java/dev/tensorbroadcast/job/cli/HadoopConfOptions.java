package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.planner.InvalidRequestException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Option;

/**
 * {@code --conf spark.hadoop.<name>=<value>} for the commands that read a dataset without Spark ({@code inspect},
 * {@code verify}, {@code export}): the same settings, in the same form, as a Spark command takes, so one set of
 * {@code s3a} settings serves both.
 */
final class HadoopConfOptions {
    @Option(
            names = "--conf",
            paramLabel = "<key>=<value>",
            description = "A Hadoop setting as Spark takes it, spark.hadoop.<name>=<value>; repeatable, e.g."
                    + " --conf spark.hadoop.fs.s3a.endpoint=http://127.0.0.1:9000.")
    Map<String, String> conf = new LinkedHashMap<>();

    /** The configuration the command reads with; a key other than {@code spark.hadoop.*} is refused (exit 2). */
    Configuration configuration() {
        conf.keySet().forEach(key -> {
            if (!key.startsWith("spark.hadoop.") || key.length() == "spark.hadoop.".length()) {
                throw new InvalidRequestException("Cannot apply --conf '" + key + "': this command starts no Spark,"
                        + " so it takes Hadoop settings only; give spark.hadoop.<name>=<value>");
            }
        });
        return HadoopSettings.configuration(conf);
    }
}
