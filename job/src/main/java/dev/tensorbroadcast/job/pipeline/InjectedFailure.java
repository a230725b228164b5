package dev.tensorbroadcast.job.pipeline;

import java.util.function.IntConsumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;

/**
 * Test hooks for the commit protocol and lost executors: Spark local properties (set on the driver's thread with
 * {@code SparkContext.setLocalProperty}, seen by that thread's tasks) make a task fail after its file is written and
 * before it is committed, or make every task take a while, so an executor can be killed while tasks run. Without
 * them nothing happens. The delays may also come from the Spark settings of the same names with a {@code spark.}
 * prefix ({@code --conf spark.tensorbroadcast.test.taskDelayMillis=500}), which executors receive from the driver:
 * a test that runs the command line as a process of its own has no other way in. One partition can be made slow in
 * its first attempt only, so a speculative copy of it overtakes it. A task the driver runs without Spark has neither:
 * it reads the same names from the Hadoop configuration it is given, where {@code --conf spark.hadoop.<name>} puts
 * them (a setting that keeps a job off Spark). The driver's side, the named steps of a job's commit where a test or
 * the fault soak pauses or halts the driver, is {@link dev.tensorbroadcast.job.commit.FaultPoint}.
 */
final class InjectedFailure {
    /** The partition whose task fails. */
    static final String PARTITION = "tensorbroadcast.test.failPartition";
    /** How many attempts of it fail: a number, or {@code all}. */
    static final String ATTEMPTS = "tensorbroadcast.test.failAttempts";

    /** How long each task sleeps before it writes, in milliseconds. */
    static final String TASK_DELAY_MILLIS = "tensorbroadcast.test.taskDelayMillis";

    /** The partition whose first attempt is slow. */
    static final String SLOW_PARTITION = "tensorbroadcast.test.slowPartition";
    /** How long that first attempt sleeps before it writes, in milliseconds. */
    static final String SLOW_MILLIS = "tensorbroadcast.test.slowMillis";

    /** How long each task sleeps after every batch it writes, in milliseconds: a slow file, for progress. */
    static final String BATCH_DELAY_MILLIS = "tensorbroadcast.test.batchDelayMillis";

    /**
     * What a task of this JVM does before it writes, given its partition: set by a test whose tasks run in its own
     * JVM (local Spark), to hold a task there until something has happened, as a task stuck in a long read or write
     * would be, deaf to its kill; null otherwise.
     */
    static volatile IntConsumer hold;

    private InjectedFailure() {}

    static void maybeHold(long partition) {
        IntConsumer held = hold;
        if (held != null) {
            held.accept(Math.toIntExact(partition));
        }
    }

    static void maybeDelayBatch(TaskContext context, Configuration conf) {
        String delay = setting(context, conf, BATCH_DELAY_MILLIS);
        if (delay != null) {
            sleep(Long.parseLong(delay));
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            // a killed task is interrupted: it stops here, as it would while writing
            Thread.currentThread().interrupt();
            throw new IllegalStateException("task interrupted during its injected delay", e);
        }
    }

    static void maybeDelay(TaskContext context, Configuration conf, long partition) {
        long millis = 0;
        String delay = setting(context, conf, TASK_DELAY_MILLIS);
        if (delay != null) {
            millis += Long.parseLong(delay);
        }
        String slow = setting(context, conf, SLOW_PARTITION);
        if (slow != null && Long.parseLong(slow) == partition && TaskPlace.attempt() == 0) {
            millis += Long.parseLong(setting(context, conf, SLOW_MILLIS));
        }
        if (millis > 0) {
            sleep(millis);
        }
    }

    /** A Spark task's local property or Spark setting; a driver's task's Hadoop setting; or null. */
    private static String setting(TaskContext context, Configuration conf, String name) {
        if (!TaskPlace.inSparkTask()) {
            return conf == null ? null : conf.get(name);
        }
        String local = context.getLocalProperty(name);
        if (local != null) {
            return local;
        }
        SparkEnv env = SparkEnv.get();
        return env == null ? null : env.conf().get("spark." + name, null);
    }

    /**
     * Fails partition {@code partition}'s task as asked: by a local property or a Spark setting on Spark (the fault
     * soak's command line in a process of its own has only the latter), a Hadoop setting in the driver.
     */
    static void maybeFail(TaskContext context, Configuration conf, long partition) {
        String failing = setting(context, conf, PARTITION);
        if (failing == null || Long.parseLong(failing) != partition) {
            return;
        }
        String attempts = setting(context, conf, ATTEMPTS);
        int attempt = TaskPlace.attempt();
        if ("all".equals(attempts) || attempt < Integer.parseInt(attempts == null ? "1" : attempts)) {
            throw new IllegalStateException("injected failure in partition " + partition + ", attempt " + attempt);
        }
    }
}
