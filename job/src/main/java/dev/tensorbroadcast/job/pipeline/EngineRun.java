package dev.tensorbroadcast.job.pipeline;

import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.LongAccumulator;

/**
 * One job on an engine, from {@link JobEngine#start} to {@link #end}: what {@link JobRun}'s skeleton asks of the
 * engine, each engine answering it whole ({@link SparkEngine}, {@link ThreadsEngine}).
 */
interface EngineRun {
    /** Before the job's work: its group, listeners and watches in place. */
    void begin();

    /** A named accumulator the tasks add to. */
    LongAccumulator accumulator(String name);

    /** The accumulator a tracked job's tasks add their bytes of values to; null when untracked. */
    LongAccumulator values();

    /** {@code value} for the tasks. */
    <T> Broadcast<T> broadcast(T value);

    /** Runs {@code task} once per partition {@code 0 .. count - 1}, returning what they return in partition order. */
    <R> List<R> tasks(int count, Function2<Integer, Iterator<Integer>, Iterator<R>> task) throws Exception;

    /** As {@link JobRun#inDriver(int, DriverPool.Task, DriverPool.Results)}: only on the driver's threads. */
    <R> void inDriver(int count, DriverPool.Task<R> task, DriverPool.Results<? super R> results) throws Exception;

    /** Whether the tasks run on this JVM's own threads. */
    boolean inThisJvm();

    /** The Spark context's Java face: only on Spark. */
    JavaSparkContext java();

    /** On failure, first: what would interrupt the undoing stops. */
    void failing();

    /**
     * Stops the failed job's tasks and waits until they ended, {@code wait} at most: null when they did, else the
     * failure saying how many were left running.
     */
    IllegalStateException stopTasks(Duration wait);

    /** What a failed job's message says first of why the engine stopped under it ("" when nothing). */
    String ended();

    /** After the job: its group, listeners and watches gone. */
    void end();

    /** Whether what the job holds may be released still (not when the engine took it along, stopping). */
    boolean mayRelease();
}
