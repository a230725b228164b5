package dev.tensorbroadcast.job.pipeline;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.job.base.Broadcasts;
import dev.tensorbroadcast.job.base.JobFailedException;
import dev.tensorbroadcast.job.base.Progress;
import dev.tensorbroadcast.job.base.Reasons;
import dev.tensorbroadcast.job.source.Shipping;
import dev.tensorbroadcast.planner.BroadcastException;
import dev.tensorbroadcast.planner.InvalidRequestException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.LongAccumulator;
import org.apache.spark.util.SerializableConfiguration;

/**
 * What every Spark job of the tool does around its own work, written once: it runs in a job group of its own, is
 * followed (when asked) by a {@link ProgressListener} over one accumulator its tasks add to, holds its shipped sources
 * and broadcasts only while it runs, and fails one way: a refusal a task found (a malformed source, a sum that leaves
 * its type) is thrown as it is, the user's input as the driver would report it; anything else is a
 * {@link JobFailedException} saying what could not be done. Each job gives only its work, and what to undo on failure.
 * Its tasks run on its {@link JobEngine} ({@link SparkEngine}, or {@link ThreadsEngine} on the driver's threads),
 * which answers everything engine-specific through one {@link EngineRun}: the same task objects, given the same
 * partition index and the same shipped values. Either way, what a failed job undoes (a commit's abort) is undone only
 * once its tasks have stopped, or a bounded wait for them gave up.
 */
final class JobRun implements Shipping {
    private final JobEngine engine;
    private final String group = "tensor-broadcast-" + UUID.randomUUID();
    private final Tracking tracking;
    /** The engine's side of this job. */
    private final EngineRun run;

    private final List<Runnable> releases = new ArrayList<>();
    private Runnable onFailure = () -> {};

    /**
     * How long a failed job waits for its tasks on Spark to stop before it undoes what they did: well within the 30 s
     * a signal's hook holds the JVM for the command to clean up and report.
     */
    static final Duration STOP_WAIT = Duration.ofSeconds(20);

    private Duration stopWait = STOP_WAIT;

    /** A job's own work inside the skeleton. */
    interface Work<T> {
        T run(JobRun run) throws Exception;
    }

    /** A job heard by {@code progress}: its partitions, its planned bytes, the accumulator its tasks add to. */
    record Tracking(Progress progress, String accumulator, long partitions, long bytes) {
        Tracking {
            requireNonNull(progress, "progress is null");
            requireNonNull(accumulator, "accumulator is null");
        }
    }

    private JobRun(JobEngine engine, String description, Tracking tracking) {
        this.engine = requireNonNull(engine, "engine is null");
        requireNonNull(description, "description is null");
        this.tracking = tracking;
        this.run = engine.start(group, description, tracking);
    }

    /** A job nobody follows. */
    static JobRun untracked(JobEngine engine, String description) {
        return new JobRun(engine, description, null);
    }

    /** A job whose progress {@code tracking} hears. */
    static JobRun tracked(JobEngine engine, String description, Tracking tracking) {
        return new JobRun(engine, description, requireNonNull(tracking, "tracking is null"));
    }

    /** Done on failure, before the failure is thrown (say, aborting the commit). */
    JobRun onFailure(Runnable undo) {
        this.onFailure = requireNonNull(undo, "undo is null");
        return this;
    }

    /** The wait for a failed job's tasks, {@link #STOP_WAIT} unless told (a test that holds a task past it). */
    JobRun stopWait(Duration wait) {
        this.stopWait = requireNonNull(wait, "wait is null");
        return this;
    }

    /**
     * Runs {@code work}; a failure is thrown as a refusal a task found, or as a {@link JobFailedException} whose
     * message is {@code failing} (such as "Cannot write 'x'") followed by the Spark job's failure.
     */
    <T> T run(String failing, Work<T> work) {
        return run(failing, NothingPasses.class, work);
    }

    /** As {@link #run(String, Work)}, but a failure of type {@code passes} is thrown as it is. */
    <T, X extends Exception> T run(String failing, Class<X> passes, Work<T> work) throws X {
        run.begin();
        try {
            return work.run(this);
        } catch (Exception failure) {
            // Spark's failures are Scala exceptions, checked in Java's eyes and thrown without a declaration
            run.failing();
            // before a failed job is undone its tasks stop, so that the undoing never races a task still writing
            IllegalStateException stillRunning = run.stopTasks(stopWait);
            onFailure.run();
            if (passes.isInstance(failure)) {
                throw withSuppressed(passes.cast(failure), stillRunning);
            }
            BroadcastException refused = refusal(failure);
            if (refused != null) {
                throw withSuppressed(refused, stillRunning);
            }
            throw withSuppressed(
                    new JobFailedException(
                            failing + ": the Spark job failed: " + run.ended() + Reasons.of(failure), failure),
                    stillRunning);
        } finally {
            run.end();
            if (tracking != null) {
                tracking.progress().finished();
            }
            if (run.mayRelease()) {
                for (Runnable release : releases) {
                    release.run();
                }
            }
        }
    }

    /** {@code thrown}, with {@code stillRunning} when there is one: said with --verbose, whose stack trace shows it. */
    private static <E extends Exception> E withSuppressed(E thrown, IllegalStateException stillRunning) {
        if (stillRunning != null) {
            thrown.addSuppressed(stillRunning);
        }
        return thrown;
    }

    /** Whether the tasks run on the driver's pool, with no Spark context. */
    boolean inDriver() {
        return run.inThisJvm();
    }

    /** The Spark context's Java face; only for a job on Spark. */
    JavaSparkContext java() {
        return run.java();
    }

    /** The Hadoop configuration the job's tasks read and write with. */
    Configuration hadoopConfiguration() {
        return engine.hadoopConfiguration();
    }

    /** A named accumulator (Spark's UI and events show it); in the driver one its tasks share. */
    LongAccumulator accumulator(String name) {
        return run.accumulator(name);
    }

    /** {@code value} for the tasks: a broadcast variable, or in the driver the object itself. */
    @Override
    public <T> Broadcast<T> broadcast(T value) {
        return run.broadcast(value);
    }

    /** The accumulator a tracked job's tasks add their bytes of values to. */
    LongAccumulator values() {
        LongAccumulator values = run.values();
        if (values == null) {
            throw new IllegalStateException("an untracked job has no accumulator");
        }
        return values;
    }

    /**
     * {@code resource}, released by {@code release} when the job ends, in the order taken; not when the engine
     * stopped under the job, which released it.
     */
    <R> R hold(R resource, Consumer<? super R> release) {
        releases.add(() -> release.accept(resource));
        return resource;
    }

    /** {@code conf} shipped to the tasks, destroyed when the job ends. */
    Broadcast<SerializableConfiguration> ship(Configuration conf) {
        return hold(broadcast(new SerializableConfiguration(conf)), Broadcasts::destroy);
    }

    /**
     * Runs {@code task} once per partition {@code 0 .. count - 1} (a partition holding its own index) and returns
     * what they return, in partition order, on the job's engine. The progress hears their start, each finished task,
     * and the end from the driver's total.
     */
    <R> List<R> tasks(int count, Function2<Integer, Iterator<Integer>, Iterator<R>> task) throws Exception {
        return run.tasks(count, task);
    }

    /**
     * Runs {@code task} for partitions {@code 0 .. count - 1} on the driver's pool; {@code results} hears what they
     * return in partition order, in this thread, while later tasks run (a bounded number ahead of it). Only for a job
     * in the driver: a Spark job's tasks are an RDD's.
     */
    <R> void inDriver(int count, DriverPool.Task<R> task, DriverPool.Results<? super R> results) throws Exception {
        run.inDriver(count, task, results);
    }

    /**
     * The refusal a task failed with (a malformed source, a sum that leaves its type), found among the causes Spark
     * wraps it in, or null.
     */
    static BroadcastException refusal(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SourceFormatException || cause instanceof InvalidRequestException) {
                return (BroadcastException) cause;
            }
        }
        return null;
    }

    /** No failure passes unmapped. */
    private static final class NothingPasses extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }
}
