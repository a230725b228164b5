package dev.tensorbroadcast.job.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.slf4j.Log4jLogger;
import org.apache.logging.slf4j.Log4jMarkerFactory;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

/**
 * A run without Spark logs through {@link QuietLogProvider} what log4j with the command line's configuration would
 * have written, byte for byte: the same calls go to log4j's SLF4J binding with {@code log4j2-quiet.properties} and to
 * ours, each writing to a captured stderr.
 */
class QuietLogProviderTest {
    private static final Exception FAILURE = new IllegalStateException("disk on fire");

    /** Loggers of the libraries an embedded run calls, and a few the configuration names. */
    private static final List<String> LOGGERS = List.of(
            "org.apache.arrow.memory.BaseAllocator",
            "io.netty.util.internal.PlatformDependent",
            "software.amazon.awssdk.services.s3.S3Client",
            "org.apache.hadoop.fs.FileSystem",
            "org.apache.hadoop.util.NativeCodeLoader",
            "org.apache.parquet.hadoop.ParquetOutputFormat",
            "org.apache.spark.SparkContext",
            "org.apache.spark.executor.Executor",
            "org.apache.spark.scheduler.cluster.YarnScheduler",
            "software.amazon.s3.analyticsaccelerator.telemetry.Telemetry",
            "dev.tensorbroadcast.job.cli.Something",
            "nodots");

    @Test
    void writesWhatLog4jWritesWithTheQuietConfiguration() throws Exception {
        for (String taskLog : new String[] {null, "error"}) {
            Function<String, String> properties = name -> name.equals(TensorBroadcastCli.TASK_LOG) ? taskLog : null;
            String log4j = captured(() -> {
                try {
                    withLog4j(taskLog, this::logEverything);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            String ours = captured(() -> {
                QuietLogLevels levels = QuietLogLevels.read(quietConfig(), properties::apply);
                logEverything(name -> new QuietLogger(name, levels.threshold(name)));
            });
            assertThat(ours).as("task log %s", taskLog).isEqualTo(log4j);
            // what gets through: warnings outside Hadoop, Parquet and Spark; errors of Hadoop and Parquet; the task
            // lines with --verbose only; never a stack trace
            assertThat(ours)
                    .contains("WARN BaseAllocator: leaked 3 bytes in [1, 2]" + System.lineSeparator())
                    .contains("ERROR FileSystem: cannot close" + System.lineSeparator())
                    .contains("WARN nodots: plain {} \\{} ü" + System.lineSeparator())
                    .doesNotContain("WARN FileSystem")
                    .doesNotContain("INFO")
                    .doesNotContain("SparkContext")
                    .doesNotContain("at dev.tensorbroadcast");
            assertThat(ours.contains("ERROR Executor:")).isEqualTo(taskLog != null);
        }
    }

    private void logEverything(Function<String, Logger> loggers) {
        for (String name : LOGGERS) {
            Logger logger = loggers.apply(name);
            logger.trace("trace {}", 1);
            logger.debug("debug {}", 1);
            logger.info("info {}", 1);
            logger.warn("leaked {} bytes in {}", 3, new int[] {1, 2});
            logger.warn("plain {} \\{} ü");
            logger.warn("with an exception", FAILURE);
            logger.warn("{} placeholders {} for {}", "two", FAILURE);
            logger.warn("escaped \\{} and {}", "one", "extra");
            logger.warn("a null {}", (Object) null);
            logger.warn("at {}", new Date(0));
            logger.warn(null);
            logger.atWarn().setMessage("fluent {}").addArgument(7).log();
            logger.error("cannot close");
            logger.error("cannot close {}", "file", FAILURE);
            logger.error("varargs {} {} {}", "a", "b", "c");
        }
    }

    @Test
    void readsTheLevelsOfTheConfiguration() {
        Properties config = new Properties();
        config.setProperty("rootLogger.level", "warn");
        config.setProperty("logger.a.name", "org.apache");
        config.setProperty("logger.a.level", "error");
        config.setProperty("logger.b.name", "org.apache.spark.executor");
        config.setProperty("logger.b.level", "${sys:task.log:-off}");
        QuietLogLevels quiet = QuietLogLevels.of(config, name -> null);
        assertThat(quiet.threshold("org.apache.hadoop.fs.FileSystem")).isEqualTo(40);
        assertThat(quiet.threshold("org.apache")).isEqualTo(40);
        assertThat(quiet.threshold("org.apacheish.Thing")).isEqualTo(30);
        assertThat(quiet.threshold("org.apache.spark.executor.Executor")).isEqualTo(QuietLogLevels.OFF);
        assertThat(QuietLogLevels.of(config, name -> name.equals("task.log") ? "ERROR" : null)
                        .threshold("org.apache.spark.executor.Executor"))
                .isEqualTo(40);

        config.setProperty("logger.b.level", "loud");
        assertThatThrownBy(() -> QuietLogLevels.of(config, name -> null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot read the log level 'loud': expected off, fatal, error, warn, info, debug, trace or"
                        + " all");
    }

    /** The layout {@link QuietLogger} writes is the configuration's, so a change there must come here too. */
    @Test
    void theConfigurationWritesTheLayoutOfQuietLogger() throws IOException {
        Properties config = new Properties();
        try (var in = quietConfig().openStream()) {
            config.load(in);
        }
        assertThat(Map.of(
                        "pattern", config.getProperty("appender.stderr.layout.pattern"),
                        "exceptions", config.getProperty("appender.stderr.layout.alwaysWriteExceptions"),
                        "target", config.getProperty("appender.stderr.target")))
                .isEqualTo(Map.of("pattern", QuietLogLevels.PATTERN, "exceptions", "false", "target", "SYSTEM_ERR"));
    }

    private static URL quietConfig() {
        return TensorBroadcastCli.class.getResource(TensorBroadcastCli.QUIET_CONFIG);
    }

    /**
     * Runs {@code logging} with loggers of a log4j context of its own, configured by the quiet configuration. Its
     * console appender follows {@link System#err}: one that does not shares the stream of a console appender made
     * earlier in this JVM (log4j keeps one per target), which is not the captured one.
     */
    private static void withLog4j(String taskLog, Consumer<Function<String, Logger>> logging) throws IOException {
        Path config = Files.createTempFile("log4j2-quiet", ".properties");
        String previous = System.getProperty(TensorBroadcastCli.TASK_LOG);
        setOrClear(taskLog);
        LoggerContext context = null;
        try (var in = quietConfig().openStream()) {
            Files.writeString(config, new String(in.readAllBytes(), UTF_8) + "\nappender.stderr.follow = true\n");
            context = new LoggerContext("quiet-test", null, config.toUri());
            context.start();
            Log4jMarkerFactory markers = new Log4jMarkerFactory();
            LoggerContext started = context;
            logging.accept(name -> new Log4jLogger(markers, started.getLogger(name), name));
        } finally {
            if (context != null) {
                context.stop();
            }
            setOrClear(previous);
            Files.delete(config);
        }
    }

    private static void setOrClear(String taskLog) {
        if (taskLog == null) {
            System.clearProperty(TensorBroadcastCli.TASK_LOG);
        } else {
            System.setProperty(TensorBroadcastCli.TASK_LOG, taskLog);
        }
    }

    /** What {@code run} wrote to {@link System#err}. */
    private static String captured(Runnable run) {
        PrintStream previous = System.err;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setErr(new PrintStream(bytes, true, UTF_8));
        try {
            run.run();
        } finally {
            System.setErr(previous);
        }
        return bytes.toString(UTF_8);
    }
}
