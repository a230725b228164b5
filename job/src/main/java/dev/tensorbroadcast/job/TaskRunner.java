package dev.tensorbroadcast.job;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.job.pipeline.JobEngine;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;

/**
 * Where a prepared run's tasks run: as Spark tasks of a session, or on a pool of this JVM's threads without any Spark
 * session (what an embedded {@code local[*]} is, minus Spark's start and task path). Both write the same files and
 * manifest; the pool has no executors, retries or speculation.
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
     * Tasks on a pool of this JVM's threads, one per core (no more than there are tasks), taken in partition order,
     * reading and writing with {@code hadoop}; once {@code cancelled} says so, no further task starts, the running
     * ones are interrupted, and the run fails (its commit aborted) once they have stopped.
     */
    public static TaskRunner inThisJvm(Configuration hadoop, BooleanSupplier cancelled) {
        return inThisJvm(hadoop, 0, cancelled);
    }

    /** As {@link #inThisJvm(Configuration, BooleanSupplier)}, on {@code threads} threads (0: one per core). */
    public static TaskRunner inThisJvm(Configuration hadoop, int threads, BooleanSupplier cancelled) {
        return new TaskRunner(JobEngine.driver(requireNonNull(hadoop, "hadoop is null"), threads,
                requireNonNull(cancelled, "cancelled is null")));
    }

    /** Whether the tasks run on this JVM's own threads, without Spark. */
    public boolean inThisJvm() {
        return engine.inThisJvm();
    }

    JobEngine engine() {
        return engine;
    }

    @Override
    public String toString() {
        return engine.toString();
    }
}
