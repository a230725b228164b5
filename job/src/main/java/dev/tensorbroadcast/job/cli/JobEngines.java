package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.job.TaskRunner;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * Where a command's job runs. A small job on the embedded default runs its tasks in this process's main thread,
 * without starting Spark: the same task objects write the same files through the same commit protocol, and the
 * manifest and output are the same, but the run takes a fraction of a second instead of the seconds a Spark session
 * and its first job take to start (docs/benchmarks.md, issue 28). Everything else runs on Spark: a job that is not
 * small, any {@code --master} (so {@code --master 'local[*]'} forces Spark), a {@code --conf} other than
 * {@code spark.hadoop.*} (a Spark setting only Spark can honour), a Spark application already running in this JVM or
 * started by spark-submit, and output that is not on a local disk.
 */
final class JobEngines {
    /** The largest job run in the driver, in bytes of values written (or, for a reduce, of gradient read). */
    static final long DRIVER_BYTES = 32L << 20;
    /** The most tasks a job run in the driver has: each one after another, on one core. */
    static final long DRIVER_TASKS = 64;

    private JobEngines() {}

    /** What decides the choice, apart from the command's options. */
    record Job(long bytes, long tasks, boolean localOutput) {}

    /** A job's engine; stops the Spark session it started, if it started one. */
    record Engine(TaskRunner engine, SparkSessions.Session session) implements AutoCloseable {
        @Override
        public void close() {
            if (session != null) {
                session.close();
            }
        }
    }

    /**
     * The driver for a small {@code job} without {@code --master}, else the Spark session on {@code master} with
     * {@code conf}; {@code hadoop} is what the driver's tasks read and write with.
     */
    static Engine obtain(String master, Map<String, String> conf, Job job, Configuration hadoop,
            OutputOptions output, PrintWriter err) {
        if (inDriver(master, conf, job, sparkRunning())) {
            if (output.verbose) {
                // said with --verbose only: the result is the same either way
                err.println(String.format(Locale.ROOT, "running the job in this process without Spark: a small job"
                        + " (%s, %s); --master 'local[*]' runs it on Spark", ByteSize.format(job.bytes()),
                        Plural.of(job.tasks(), "task")));
                err.flush();
            }
            return new Engine(TaskRunner.inThisThread(hadoop, Interruption::signalled), null);
        }
        SparkSessions.Session session = SparkSessions.obtain(master, conf);
        return new Engine(TaskRunner.spark(session.spark()), session);
    }

    /** Whether {@code job} runs in the driver; {@code sparkRunning}: a Spark application runs in this JVM. */
    static boolean inDriver(String master, Map<String, String> conf, Job job, boolean sparkRunning) {
        return master == null && !sparkRunning
                && conf.keySet().stream().allMatch(key -> key.startsWith("spark.hadoop."))
                && job.localOutput() && job.bytes() <= DRIVER_BYTES && job.tasks() <= DRIVER_TASKS;
    }

    /** Whether {@code location} (a path or a URI, or null for no output) lies on this machine's disks. */
    static boolean local(String location) {
        if (location == null) {
            return true;
        }
        String scheme = new Path(location).toUri().getScheme();
        return scheme == null || scheme.equals("file");
    }

    /** A session started in this JVM (an application calling the command line), or a master spark-submit set. */
    private static boolean sparkRunning() {
        return System.getProperty("spark.master") != null
                || SparkSessions.mayRun() && SparkSessions.running().isPresent();
    }
}
