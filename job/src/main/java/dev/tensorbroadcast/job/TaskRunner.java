package dev.tensorbroadcast.job;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.job.spark.JobEngine;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;

/**
 * Where a prepared run's tasks run: as Spark tasks of a session, or one after another in the calling thread without
 * any Spark session, for a job small enough that starting Spark would cost more than the work. Both write the same
 * files and manifest; the calling thread has no executors, retries or speculation.
 */
public final class TaskRunner {
    private final JobEngine engine;

    private TaskRunner(JobEngine engine) {
        this.engine = engine;
    }

    /** Tasks on {@code spark}: what the methods taking a {@link SparkSession} do. */
    public static TaskRunner spark(SparkSession spark) {
        return new TaskRunner(JobEngine.spark(spark));
    }

    /**
     * Tasks in the calling thread, reading and writing with {@code hadoop}; once {@code cancelled} says so, no
     * further task starts and the run fails (its commit aborted).
     */
    public static TaskRunner inThisThread(Configuration hadoop, BooleanSupplier cancelled) {
        return new TaskRunner(JobEngine.driver(requireNonNull(hadoop, "hadoop is null"),
                requireNonNull(cancelled, "cancelled is null")));
    }

    /** Whether the tasks run in the calling thread. */
    public boolean inThisThread() {
        return engine.session().isEmpty();
    }

    JobEngine engine() {
        return engine;
    }

    @Override
    public String toString() {
        return engine.toString();
    }
}
