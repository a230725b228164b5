package dev.tensorbroadcast.job.pipeline;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.LongAccumulator;

/**
 * Tasks on a pool of the driver's own threads ({@link DriverPool}), without any Spark session: the same task objects
 * a Spark job runs, given the same partition index and the same shipped values (the objects themselves:
 * {@link DriverBroadcast}, {@link DriverAccumulator}). It has no executors, retries or speculation; the pool throws
 * only once every task of it has stopped, and reads the Hadoop configuration it is given where a Spark job reads its
 * context's.
 */
final class ThreadsEngine implements JobEngine {
    /** The output committer's algorithm, which Spark sets to 1 in its context's configuration unless told. */
    static final String COMMIT_ALGORITHM = "mapreduce.fileoutputcommitter.algorithm.version";

    private final Configuration hadoop;
    /** The driver's threads; 0 for one per core. */
    private final int threads;

    private final BooleanSupplier cancelled;

    ThreadsEngine(Configuration hadoop, int threads, BooleanSupplier cancelled) {
        if (threads < 0) {
            throw new IllegalArgumentException("Cannot run tasks in the driver on " + threads + " threads");
        }
        this.hadoop = withSparkDefaults(hadoop);
        this.threads = threads;
        this.cancelled = cancelled;
    }

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

    @Override
    public boolean inThisJvm() {
        return true;
    }

    @Override
    public Configuration hadoopConfiguration() {
        return hadoop;
    }

    @Override
    public EngineRun start(String group, String description, JobRun.Tracking tracking) {
        return new ThreadsRun(description, tracking);
    }

    @Override
    public String toString() {
        return "driver";
    }

    private final class ThreadsRun implements EngineRun {
        private final String description;
        private final JobRun.Tracking tracking;
        private final LongAccumulator values;

        ThreadsRun(String description, JobRun.Tracking tracking) {
            this.description = description;
            this.tracking = tracking;
            this.values = tracking == null ? null : new DriverAccumulator();
        }

        @Override
        public void begin() {}

        /** One the tasks share and add to from the pool's threads. */
        @Override
        public LongAccumulator accumulator(String name) {
            return new DriverAccumulator();
        }

        @Override
        public LongAccumulator values() {
            return values;
        }

        /** The object itself. */
        @Override
        public <T> Broadcast<T> broadcast(T value) {
            return new DriverBroadcast<>(value);
        }

        @Override
        public <R> List<R> tasks(int count, Function2<Integer, Iterator<Integer>, Iterator<R>> task) throws Exception {
            List<R> results = new ArrayList<>();
            inDriver(
                    count,
                    index -> {
                        List<R> partition = new ArrayList<>(1);
                        task.call(index, List.of(index).iterator()).forEachRemaining(partition::add);
                        return partition;
                    },
                    (index, partition) -> results.addAll(partition));
            return results;
        }

        @Override
        public <R> void inDriver(int count, DriverPool.Task<R> task, DriverPool.Results<? super R> results)
                throws Exception {
            if (tracking != null) {
                tracking.progress().started(description, tracking.partitions(), tracking.bytes());
            }
            long[] heard = {-1, -1};
            int pool = threads == 0 ? DriverPool.threads(count) : Math.max(1, Math.min(threads, count));
            DriverPool.run(count, pool, cancelled, task, results, done -> {
                // every poll while a long task writes, but only what changed: the bytes of its finished batches
                long bytes = tracking == null ? 0 : values.value();
                if (tracking != null && (done != heard[0] || bytes != heard[1])) {
                    heard[0] = done;
                    heard[1] = bytes;
                    tracking.progress().advanced(done, bytes);
                }
            });
        }

        @Override
        public boolean inThisJvm() {
            return true;
        }

        @Override
        public JavaSparkContext java() {
            throw new IllegalStateException("a job in the driver has no Spark context");
        }

        @Override
        public void failing() {}

        /** The driver's pool throws only once every task of it has stopped. */
        @Override
        public IllegalStateException stopTasks(Duration wait) {
            return null;
        }

        @Override
        public String ended() {
            return "";
        }

        @Override
        public void end() {}

        @Override
        public boolean mayRelease() {
            return true;
        }
    }
}
