package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.job.ByteSize;
import dev.tensorbroadcast.job.pipeline.JobEngine;
import dev.tensorbroadcast.job.store.Stores;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * Which {@link JobEngine} a command's job runs on, and why. A job on the embedded default runs its tasks on a pool of this process's threads, without
 * starting Spark, whatever its size: {@code local[*]} is nothing but threads of this JVM, and the pool runs the same
 * task objects, one per core at once, in partition order, writing the same files through the same commit protocol,
 * with the same manifest, minus the second a Spark session takes to start and Spark's task path (docs/benchmarks.md,
 * issue 28). Everything else runs on Spark: any {@code --master} (so {@code --master 'local[*]'} forces Spark), a
 * {@code --conf} other than {@code spark.hadoop.*} (a Spark setting only Spark can honour), a Spark application
 * already running in this JVM or started by spark-submit, and output that is not on a local disk.
 */
final class EngineChoice {
    private EngineChoice() {}

    /** What decides the choice, apart from the command's options; the bytes and tasks are only said. */
    record Job(long bytes, long tasks, boolean localOutput) {}

    /** The engine chosen, and what closing it stops: the Spark session it started, or nothing. */
    record Chosen(JobEngine engine, Runnable stop) implements AutoCloseable {
        @Override
        public void close() {
            stop.run();
        }
    }

    /**
     * This JVM's threads for a {@code job} without {@code --master}, else the Spark session on {@code master} with
     * {@code conf}; {@code hadoop} is what the driver's tasks read and write with. With {@code --verbose}, says which
     * and why.
     */
    static Chosen obtain(
            String master,
            Map<String, String> conf,
            Job job,
            Configuration hadoop,
            OutputOptions output,
            PrintWriter err) {
        boolean sparkRunning = sparkRunning();
        String whySpark = whySpark(master, conf, job, sparkRunning);
        boolean inThisJvm = whySpark == null;
        if (output.verbose) {
            // said with --verbose only: the result is the same either way
            long threads =
                    Math.max(1, Math.min(job.tasks(), Runtime.getRuntime().availableProcessors()));
            err.println(
                    inThisJvm
                            ? String.format(
                                    Locale.ROOT,
                                    "running the job in this process without Spark, on %s: the"
                                            + " embedded default (%s, %s); --master 'local[*]' runs it on Spark",
                                    Plural.of(threads, "thread"),
                                    ByteSize.format(job.bytes()),
                                    Plural.of(job.tasks(), "task"))
                            : "running the job on Spark: " + whySpark);
            err.flush();
        }
        if (inThisJvm) {
            return new Chosen(JobEngine.driver(hadoop, Interruption::signalled), () -> {});
        }
        SparkSessions.Session session = SparkSessions.obtain(master, conf);
        return new Chosen(JobEngine.spark(session.spark()), session::close);
    }

    /** Whether {@code job} runs in the driver; {@code sparkRunning}: a Spark application runs in this JVM. */
    static boolean inDriver(String master, Map<String, String> conf, Job job, boolean sparkRunning) {
        return whySpark(master, conf, job, sparkRunning) == null;
    }

    /** Why {@code job} runs on Spark, or null when it runs in the driver. */
    static String whySpark(String master, Map<String, String> conf, Job job, boolean sparkRunning) {
        if (master != null) {
            return "--master " + master + " was given";
        }
        if (sparkRunning) {
            return "a Spark application runs in this JVM";
        }
        String setting = conf.keySet().stream()
                .filter(key -> !key.startsWith("spark.hadoop."))
                .sorted()
                .findFirst()
                .orElse(null);
        if (setting != null) {
            return "--conf " + setting + " is a Spark setting";
        }
        if (!job.localOutput()) {
            return "the output is not on a local disk";
        }
        return null;
    }

    /** Whether {@code location} (a path or a URI, or null for no output) lies on this machine's disks. */
    static boolean local(String location) {
        if (location == null) {
            return true;
        }
        return Stores.forLocation(location).onThisMachine();
    }

    /** A session started in this JVM (an application calling the command line), or a master spark-submit set. */
    private static boolean sparkRunning() {
        return System.getProperty("spark.master") != null
                || (SparkSessions.mayRun() && SparkSessions.running().isPresent());
    }
}
