package dev.tensorbroadcast.job.spark;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;

/**
 * Where a job's tasks run: as Spark tasks of a session, or on a pool of the driver's own threads without any Spark
 * session ({@link DriverPool}: on the embedded default master, whose {@code local[*]} is nothing but threads of this
 * JVM, starting Spark costs a second and its task path more). The tasks are the same objects either way, called with
 * the same arguments; the driver's job has no executors, retries or speculation, and reads the Hadoop configuration it
 * is given where a Spark job reads its context's.
 */
public final class JobEngine {
    private final SparkSession spark;
    private final Configuration hadoop;
    /** The driver's threads; 0 for one per core. */
    private final int threads;
    private final BooleanSupplier cancelled;

    private JobEngine(SparkSession spark, Configuration hadoop, int threads, BooleanSupplier cancelled) {
        this.spark = spark;
        this.hadoop = hadoop;
        this.threads = threads;
        this.cancelled = cancelled;
    }

    /** Tasks on {@code spark}. */
    public static JobEngine spark(SparkSession spark) {
        return new JobEngine(requireNonNull(spark, "spark is null"), null, 0, () -> false);
    }

    /**
     * Tasks on a pool of this JVM's threads, one per core (no more than there are tasks), reading files with
     * {@code hadoop} (Spark's {@code spark.hadoop.*} settings included); once {@code cancelled} says so (a signal),
     * no further task starts, the running ones are interrupted, and the job fails as Spark's stopped one does.
     */
    public static JobEngine driver(Configuration hadoop, BooleanSupplier cancelled) {
        return driver(hadoop, 0, cancelled);
    }

    /** As {@link #driver(Configuration, BooleanSupplier)} on {@code threads} threads (0: one per core). */
    public static JobEngine driver(Configuration hadoop, int threads, BooleanSupplier cancelled) {
        if (threads < 0) {
            throw new IllegalArgumentException("Cannot run tasks in the driver on " + threads + " threads");
        }
        return new JobEngine(null, withSparkDefaults(requireNonNull(hadoop, "hadoop is null")), threads,
                requireNonNull(cancelled, "cancelled is null"));
    }

    /** The output committer's algorithm, which Spark sets to 1 in its context's configuration unless told. */
    static final String COMMIT_ALGORITHM = "mapreduce.fileoutputcommitter.algorithm.version";

    /**
     * {@code hadoop} with what Spark puts into its context's Hadoop configuration unless a {@code spark.hadoop.*}
     * setting says otherwise: the commit algorithm 1, whose tasks commit into the job's attempt directory and whose
     * job commit moves their files into the output. Hadoop's own default (2) moves each task's files into the output
     * as the task commits, so a job that failed after some tasks had committed left their files visible.
     */
    static Configuration withSparkDefaults(Configuration hadoop) {
        String[] sources = hadoop.getPropertySources(COMMIT_ALGORITHM);
        if (sources != null && !java.util.Arrays.stream(sources).allMatch(source -> source.endsWith("-default.xml"))) {
            return hadoop;
        }
        Configuration conf = new Configuration(hadoop);
        conf.set(COMMIT_ALGORITHM, "1", "what Spark sets");
        return conf;
    }

    /** Whether the driver's job was cancelled (a signal). */
    BooleanSupplier cancelled() {
        return cancelled;
    }

    /** The driver's threads for {@code tasks} tasks. */
    int threads(int tasks) {
        return threads == 0 ? DriverPool.threads(tasks) : Math.max(1, Math.min(threads, tasks));
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
