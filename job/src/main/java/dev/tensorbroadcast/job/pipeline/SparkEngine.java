package dev.tensorbroadcast.job.pipeline;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.job.base.SignalStops;
import dev.tensorbroadcast.job.base.TaskGroups;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkContext;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.util.LongAccumulator;

/**
 * Tasks as Spark tasks of a session: one RDD partition per task, in a job group of the run's own, followed by a
 * {@link ProgressListener} and {@link RunningTasks}, shipped values as broadcast variables; a failed job's tasks are
 * cancelled and waited for, and a context stopped under the job (a signal, YARN ending the application) is watched
 * ({@link StoppedContextWatch}) and said.
 */
final class SparkEngine implements JobEngine {
    private final SparkSession spark;

    SparkEngine(SparkSession spark) {
        this.spark = requireNonNull(spark, "spark is null");
    }

    /**
     * The Spark task the calling thread runs, if it runs one: a task {@link ThreadsEngine} calls has no Spark task
     * context. The one place a task asks which engine runs it ({@link TaskPlace}, {@link InjectedFailure}).
     */
    static Optional<TaskContext> task() {
        return Optional.ofNullable(TaskContext.get());
    }

    @Override
    public boolean inThisJvm() {
        return false;
    }

    @Override
    public Configuration hadoopConfiguration() {
        return spark.sparkContext().hadoopConfiguration();
    }

    @Override
    public EngineRun start(String group, String description, JobRun.Tracking tracking) {
        return new SparkRun(spark.sparkContext(), group, description, tracking);
    }

    @Override
    public String toString() {
        return "spark " + spark.sparkContext().master();
    }

    private static final class SparkRun implements EngineRun {
        private final SparkContext context;
        private final JavaSparkContext java;
        private final String group;
        private final String description;
        private final JobRun.Tracking tracking;
        private final LongAccumulator values;
        /** The job's progress, when it is tracked. */
        private final ProgressListener listener;
        /** The job's tasks, started and not yet ended. */
        private final RunningTasks running;

        private StoppedContextWatch watch;
        /** While the job runs, a signal stops its tasks before the shutdown stops the context. */
        private SignalStops.Registration signalStop;

        SparkRun(SparkContext context, String group, String description, JobRun.Tracking tracking) {
            this.context = context;
            this.java = JavaSparkContext.fromSparkContext(context);
            this.group = group;
            this.description = description;
            this.tracking = tracking;
            this.values = tracking == null ? null : context.longAccumulator(tracking.accumulator());
            this.listener = tracking == null ? null : new ProgressListener(group, values, tracking.progress());
            this.running = new RunningTasks(group);
        }

        @Override
        public void begin() {
            if (listener != null) {
                context.addSparkListener(listener);
            }
            context.addSparkListener(running);
            watch = StoppedContextWatch.start(context::isStopped, Thread.currentThread());
            context.setJobGroup(group, description, false);
            signalStop = SignalStops.register(this::stop);
        }

        @Override
        public LongAccumulator accumulator(String name) {
            return context.longAccumulator(name);
        }

        @Override
        public LongAccumulator values() {
            return values;
        }

        @Override
        public <T> Broadcast<T> broadcast(T value) {
            return java.broadcast(value);
        }

        @Override
        public <R> List<R> tasks(int count, Function2<Integer, Iterator<Integer>, Iterator<R>> task) {
            List<Integer> indexes = IntStream.range(0, count).boxed().toList();
            JavaRDD<R> tasks =
                    java.parallelize(indexes, count).mapPartitionsWithIndex(new InGroup<>(group, task), false);
            if (tracking == null) {
                return tasks.collect();
            }
            // the progress hears the tasks' start and, from the driver's total, their end
            tracking.progress().started(description, tracking.partitions(), tracking.bytes());
            List<R> results = tasks.collect();
            listener.completed(tracking.partitions());
            return results;
        }

        @Override
        public <R> void inDriver(int count, DriverPool.Task<R> task, DriverPool.Results<? super R> results) {
            throw new IllegalStateException("a Spark job's tasks run on Spark");
        }

        @Override
        public boolean inThisJvm() {
            return false;
        }

        @Override
        public JavaSparkContext java() {
            return java;
        }

        /** The wait for the tasks is bounded: the watch's interruption would cut it short and stay for the undo. */
        @Override
        public void failing() {
            watch.close();
        }

        /**
         * Spark fails a job without waiting for its killed tasks, and a stopped context (a signal) kills none: on a
         * local master they run on in this JVM, and are stopped and waited for here ({@link TaskGroups}); on
         * executors elsewhere they are heard end ({@link RunningTasks}), unless the context stopped, which took those
         * executors along.
         */
        @Override
        public IllegalStateException stopTasks(Duration wait) {
            int left = stop(System.nanoTime() + wait.toNanos());
            if (left == 0) {
                return null;
            }
            return new IllegalStateException("Cannot wait for the job's tasks to stop: " + left + " still running"
                    + " after " + wait.toSeconds() + " s; the failed job was undone while they ran, and what they"
                    + " write after it may be left behind");
        }

        /**
         * Stops the group's tasks and waits for them until {@code deadline}: also from a signal's handler, before the
         * shutdown stops the context and with it the events of executors' tasks ({@link SignalStops}). Returns how many
         * are still running.
         */
        private int stop(long deadline) {
            TaskGroups.stop(group);
            if (!context.isStopped()) {
                try {
                    // "and future jobs": a failed job's own job has usually ended with it, and Spark warns of a group
                    // cancelled with no active job ("Cannot find active jobs") in the logs of whoever owns the
                    // session; the group is this run's alone, so refusing its later jobs changes nothing else
                    context.cancelJobGroupAndFutureJobs(group);
                } catch (IllegalStateException stoppedMeanwhile) {
                    // nothing left to cancel: what runs here is stopped above, and executors elsewhere went along
                }
            }
            int here = TaskGroups.await(group, deadline);
            int anywhere = running.await(deadline, context::isStopped);
            return Math.max(here, context.isStopped() ? 0 : anywhere);
        }

        /**
         * Why Spark stopped under the job, when YARN ended its application (killed, or its application master lost):
         * Spark's own reason only says that the context was shut down.
         */
        @Override
        public String ended() {
            if (!context.isStopped() || !context.master().startsWith("yarn")) {
                return "";
            }
            return "its YARN application " + context.applicationId() + " ended under it (killed, or its application"
                    + " master lost); ";
        }

        @Override
        public void end() {
            if (signalStop != null) {
                signalStop.close();
            }
            watch.close();
            context.clearJobGroup();
            if (listener != null) {
                context.removeSparkListener(listener);
            }
            context.removeSparkListener(running);
        }

        /**
         * What is held lives in the context's block managers: a context stopped under the job (YARN killed its
         * application) took them with it, and a broadcast's removal then waited out its 120 s ask timeout for
         * executors that are gone and printed the stopped pool's RejectedExecutionException.
         */
        @Override
        public boolean mayRelease() {
            return !context.isStopped();
        }
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
}
