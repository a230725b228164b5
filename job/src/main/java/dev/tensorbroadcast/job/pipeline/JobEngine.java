package dev.tensorbroadcast.job.pipeline;

import static java.util.Objects.requireNonNull;

import java.util.function.BooleanSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;

/**
 * Where a job's tasks run: {@link SparkEngine}, as Spark tasks of a session, or {@link ThreadsEngine}, on a pool of
 * the driver's own threads without any Spark session (on the embedded default master, whose {@code local[*]} is
 * nothing but threads of this JVM, starting Spark costs a second and its task path more). The tasks are the same
 * objects either way, called with the same arguments; each engine is the whole of its way to run them
 * ({@link EngineRun}), and {@link JobRun} around them is the same for both.
 */
public interface JobEngine {
    /** Tasks on {@code spark}. */
    static JobEngine spark(SparkSession spark) {
        return new SparkEngine(spark);
    }

    /**
     * Tasks on a pool of this JVM's threads, one per core (no more than there are tasks), reading files with
     * {@code hadoop} (Spark's {@code spark.hadoop.*} settings included); once {@code cancelled} says so (a signal),
     * no further task starts, the running ones are interrupted, and the job fails as Spark's stopped one does.
     */
    static JobEngine driver(Configuration hadoop, BooleanSupplier cancelled) {
        return driver(hadoop, 0, cancelled);
    }

    /** As {@link #driver(Configuration, BooleanSupplier)} on {@code threads} threads (0: one per core). */
    static JobEngine driver(Configuration hadoop, int threads, BooleanSupplier cancelled) {
        return new ThreadsEngine(
                requireNonNull(hadoop, "hadoop is null"), threads, requireNonNull(cancelled, "cancelled is null"));
    }

    /** Whether the tasks run on this JVM's own threads, without Spark. */
    boolean inThisJvm();

    /** The Hadoop configuration the tasks read and write with. */
    Configuration hadoopConfiguration();

    /**
     * Starts one job's run on this engine: its tasks in job group {@code group}, described as {@code description},
     * heard by {@code tracking} (null: nobody follows it).
     */
    EngineRun start(String group, String description, JobRun.Tracking tracking);
}
