package dev.tensorbroadcast.job.spark;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.job.base.Broadcasts;
import dev.tensorbroadcast.job.base.JobFailedException;
import dev.tensorbroadcast.job.base.JobProgress;
import dev.tensorbroadcast.job.base.Reasons;
import dev.tensorbroadcast.job.base.TaskGroups;
import dev.tensorbroadcast.job.source.Shipping;
import dev.tensorbroadcast.planner.BroadcastException;
import dev.tensorbroadcast.planner.InvalidRequestException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaRDD;
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
 * Its tasks run on Spark, or on a pool of the driver's threads ({@link JobEngine#driver}, {@link DriverPool}): the
 * same task objects, given the same partition index and the same shipped values. Either way, what a failed job undoes
 * (a commit's abort) is undone only once its tasks have stopped, or a bounded wait for them gave up.
 */
final class JobRun implements Shipping {
    /** Null when the tasks run in the driver. */
    private final SparkContext context;
    private final JavaSparkContext java;
    private final JobEngine engine;
    private final String description;
    private final String group = "tensor-broadcast-" + UUID.randomUUID();
    private final Tracking tracking;
    private final LongAccumulator values;
    private final ProgressListener listener;
    /** The job's tasks on Spark, started and not yet ended; null when the tasks run in the driver. */
    private final RunningTasks running;
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
    record Tracking(JobProgress progress, String accumulator, long partitions, long bytes) {
        Tracking {
            requireNonNull(progress, "progress is null");
            requireNonNull(accumulator, "accumulator is null");
        }
    }

    private JobRun(JobEngine engine, String description, Tracking tracking) {
        this.engine = requireNonNull(engine, "engine is null");
        this.context = engine.session().map(spark -> spark.sparkContext()).orElse(null);
        this.java = context == null ? null : JavaSparkContext.fromSparkContext(context);
        this.description = requireNonNull(description, "description is null");
        this.tracking = tracking;
        this.values = tracking == null ? null : accumulator(tracking.accumulator());
        this.listener = tracking == null || context == null ? null
                : new ProgressListener(group, values, tracking.progress());
        this.running = context == null ? null : new RunningTasks(group);
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
        if (listener != null) {
            context.addSparkListener(listener);
        }
        if (running != null) {
            context.addSparkListener(running);
        }
        StoppedContextWatch watch = context == null ? null
                : StoppedContextWatch.start(context::isStopped, Thread.currentThread());
        try {
            if (context != null) {
                context.setJobGroup(group, description, false);
            }
            return work.run(this);
        } catch (Exception failure) {
            // Spark's failures are Scala exceptions, checked in Java's eyes and thrown without a declaration
            if (watch != null) {
                // the wait for the tasks is bounded: the watch's interruption would cut it short and stay for the undo
                watch.close();
            }
            IllegalStateException stillRunning = stopTasks();
            onFailure.run();
            if (passes.isInstance(failure)) {
                throw withSuppressed(passes.cast(failure), stillRunning);
            }
            BroadcastException refused = refusal(failure);
            if (refused != null) {
                throw withSuppressed(refused, stillRunning);
            }
            throw withSuppressed(new JobFailedException(failing + ": the Spark job failed: " + ended()
                    + Reasons.of(failure), failure), stillRunning);
        } finally {
            if (context != null) {
                watch.close();
                context.clearJobGroup();
            }
            if (listener != null) {
                context.removeSparkListener(listener);
            }
            if (running != null) {
                context.removeSparkListener(running);
            }
            if (tracking != null) {
                tracking.progress().finished();
            }
            // what is held lives in the context's block managers: a context stopped under the job (YARN killed its
            // application) took them with it, and a broadcast's removal then waited out its 120 s ask timeout for
            // executors that are gone and printed the stopped pool's RejectedExecutionException
            if (context == null || !context.isStopped()) {
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

    /**
     * Before a failed job is undone: stops its tasks on Spark and waits, for {@link #stopWait} at most, until they
     * have ended, as {@link DriverPool} does for the driver's own, so that the undoing never races a task still
     * writing; null when they ended, else the failure saying how many were left running. Spark fails a job without
     * waiting for its killed tasks, and a stopped context (a signal) kills none: on a local master they run on in
     * this JVM, and are stopped and waited for here ({@link TaskGroups}); on executors elsewhere they are heard end
     * ({@link RunningTasks}), unless the context stopped, which took those executors along.
     */
    private IllegalStateException stopTasks() {
        if (context == null) {
            // the driver's pool throws only once every task of it has stopped
            return null;
        }
        long deadline = System.nanoTime() + stopWait.toNanos();
        TaskGroups.stop(group);
        if (!context.isStopped()) {
            try {
                // "and future jobs": a failed job's own job has usually ended with it, and Spark warns of a group
                // cancelled with no active job ("Cannot find active jobs") in the logs of whoever owns the session;
                // the group is this run's alone, so refusing its later jobs changes nothing else
                context.cancelJobGroupAndFutureJobs(group);
            } catch (IllegalStateException stoppedMeanwhile) {
                // nothing left to cancel: what runs here is stopped above, and executors elsewhere went along
            }
        }
        int here = TaskGroups.await(group, deadline);
        int anywhere = running.await(deadline, context::isStopped);
        int left = Math.max(here, context.isStopped() ? 0 : anywhere);
        if (left == 0) {
            return null;
        }
        return new IllegalStateException("Cannot wait for the job's tasks to stop: " + left + " still running after "
                + stopWait.toSeconds() + " s; the failed job was undone while they ran, and what they write after it"
                + " may be left behind");
    }

    /**
     * Why Spark stopped under the job, when YARN ended its application (killed, or its application master lost):
     * Spark's own reason only says that the context was shut down.
     */
    private String ended() {
        if (context == null || !context.isStopped() || !context.master().startsWith("yarn")) {
            return "";
        }
        return "its YARN application " + context.applicationId() + " ended under it (killed, or its application"
                + " master lost); ";
    }

    /** Whether the tasks run on the driver's pool, with no Spark context. */
    boolean inDriver() {
        return context == null;
    }

    /** The Spark context's Java face; only for a job on Spark. */
    JavaSparkContext java() {
        if (java == null) {
            throw new IllegalStateException("a job in the driver has no Spark context");
        }
        return java;
    }

    /** The Hadoop configuration the job's tasks read and write with. */
    Configuration hadoopConfiguration() {
        return engine.hadoopConfiguration();
    }

    /**
     * A named accumulator (Spark's UI and events show it); in the driver one its tasks share and add to from the
     * pool's threads.
     */
    LongAccumulator accumulator(String name) {
        if (context != null) {
            return context.longAccumulator(name);
        }
        return new DriverAccumulator();
    }

    /** {@code value} for the tasks: a broadcast variable, or in the driver the object itself. */
    @Override
    public <T> Broadcast<T> broadcast(T value) {
        return java != null ? java.broadcast(value) : new DriverBroadcast<>(value);
    }

    /** The accumulator a tracked job's tasks add their bytes of values to. */
    LongAccumulator values() {
        if (values == null) {
            throw new IllegalStateException("an untracked job has no accumulator");
        }
        return values;
    }

    /**
     * {@code resource}, released by {@code release} when the job ends, in the order taken; not when the context
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
     * what they return, in partition order: as Spark tasks, or on the driver's pool ({@link DriverPool}). The progress
     * hears their start, each finished task, and the end from the driver's total.
     */
    <R> List<R> tasks(int count, Function2<Integer, Iterator<Integer>, Iterator<R>> task) throws Exception {
        if (context != null) {
            List<Integer> indexes = IntStream.range(0, count).boxed().toList();
            return collect(java.parallelize(indexes, count).mapPartitionsWithIndex(new InGroup<>(group, task), false));
        }
        List<R> results = new ArrayList<>();
        inDriver(count, index -> {
            List<R> partition = new ArrayList<>(1);
            task.call(index, List.of(index).iterator()).forEachRemaining(partition::add);
            return partition;
        }, (index, partition) -> results.addAll(partition));
        return results;
    }

    /**
     * Runs {@code task} for partitions {@code 0 .. count - 1} on the driver's pool; {@code results} hears what they
     * return in partition order, in this thread, while later tasks run (a bounded number ahead of it). Only for a job
     * in the driver: a Spark job's tasks are an RDD's.
     */
    <R> void inDriver(int count, DriverPool.Task<R> task, DriverPool.Results<? super R> results) throws Exception {
        if (context != null) {
            throw new IllegalStateException("a Spark job's tasks run on Spark");
        }
        if (tracking != null) {
            tracking.progress().started(description, tracking.partitions(), tracking.bytes());
        }
        long[] heard = {-1, -1};
        DriverPool.run(count, engine.threads(count), engine.cancelled(), task, results, done -> {
            // every poll while a long task writes, but only what changed: the bytes of its finished batches
            long bytes = tracking == null ? 0 : values.value();
            if (tracking != null && (done != heard[0] || bytes != heard[1])) {
                heard[0] = done;
                heard[1] = bytes;
                tracking.progress().advanced(done, bytes);
            }
        });
    }

    /** Collects {@code tasks}, one per partition: the progress hears their start and, from the driver's total, end. */
    private <R> List<R> collect(JavaRDD<R> tasks) {
        if (tracking == null) {
            return tasks.collect();
        }
        tracking.progress().started(description, tracking.partitions(), tracking.bytes());
        List<R> results = tasks.collect();
        listener.completed(tracking.partitions());
        return results;
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

    /**
     * A task on Spark in its job's group of this JVM ({@link TaskGroups}), which a failed job's driver on a local
     * master stops and waits for; its results are taken while it is in the group, so that none of its work comes
     * after.
     */
    private record InGroup<R>(String group, Function2<Integer, Iterator<Integer>, Iterator<R>> task)
            implements Function2<Integer, Iterator<Integer>, Iterator<R>> {
        private static final long serialVersionUID = 1L;

        @Override
        public Iterator<R> call(Integer index, Iterator<Integer> indexes) throws Exception {
            try (TaskGroups.Entry entry = TaskGroups.enter(group)) {
                List<R> results = new ArrayList<>();
                task.call(index, indexes).forEachRemaining(results::add);
                return results.iterator();
            }
        }
    }

    /** No failure passes unmapped. */
    private static final class NothingPasses extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }
}
