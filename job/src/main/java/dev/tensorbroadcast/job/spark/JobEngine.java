package dev.tensorbroadcast.job.spark;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;

/**
 * Where a job's tasks run: as Spark tasks of a session, or one after another in the driver's thread without any
 * Spark session (a small job on the embedded default master, where starting Spark costs a hundred times the work).
 * The tasks are the same objects either way, called with the same arguments; the driver's job has no executors,
 * retries or speculation, and reads the Hadoop configuration it is given where a Spark job reads its context's.
 */
public final class JobEngine {
    private final SparkSession spark;
    private final Configuration hadoop;
    private final BooleanSupplier cancelled;

    private JobEngine(SparkSession spark, Configuration hadoop, BooleanSupplier cancelled) {
        this.spark = spark;
        this.hadoop = hadoop;
        this.cancelled = cancelled;
    }

    /** Tasks on {@code spark}. */
    public static JobEngine spark(SparkSession spark) {
        return new JobEngine(requireNonNull(spark, "spark is null"), null, () -> false);
    }

    /**
     * Tasks in this thread, reading files with {@code hadoop} (Spark's {@code spark.hadoop.*} settings included);
     * once {@code cancelled} says so (a signal), no further task starts and the job fails as Spark's stopped one does.
     */
    public static JobEngine driver(Configuration hadoop, BooleanSupplier cancelled) {
        return new JobEngine(null, requireNonNull(hadoop, "hadoop is null"),
                requireNonNull(cancelled, "cancelled is null"));
    }

    /** Throws when the driver's job was cancelled: between tasks, where Spark would kill them. */
    void checkCancelled() {
        if (cancelled.getAsBoolean()) {
            throw new CancellationException("the job was cancelled: the process is shutting down");
        }
    }

    /** The session, unless the tasks run in the driver. */
    public Optional<SparkSession> session() {
        return Optional.ofNullable(spark);
    }

    /** The Hadoop configuration the tasks read and write with. */
    Configuration hadoopConfiguration() {
        return spark != null ? spark.sparkContext().hadoopConfiguration() : hadoop;
    }

    @Override
    public String toString() {
        return spark != null ? "spark " + spark.sparkContext().master() : "driver";
    }
}
