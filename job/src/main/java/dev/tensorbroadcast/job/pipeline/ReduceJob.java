package dev.tensorbroadcast.job.pipeline;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.reduce.ReduceKernel;
import dev.tensorbroadcast.job.source.Gradient;
import dev.tensorbroadcast.job.source.GradientRows;
import dev.tensorbroadcast.job.source.JobSource;
import dev.tensorbroadcast.job.source.TaskSource;
import dev.tensorbroadcast.planner.Partition;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.ReducePlan;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.util.SerializableConfiguration;
import scala.Tuple2;

/**
 * The Spark side of a reduce whose gradient rows all add into the whole result ({@code ROWS_SUMMED}): task {@code p}
 * sums its share of the gradient rows into an input-shaped partial; partials are merged in a tree of fixed shape,
 * {@link #FANOUT} consecutive partials per merge, in index order, until one is left for the driver (small partials
 * are merged by the driver itself, in the same tree). The same partitioning gives the same bits on every run, retried
 * and speculative tasks included: nothing is added in the order tasks happen to finish.
 */
public final class ReduceJob {
    /** Partials merged per task of the tree: its depth is log8 of the task count. */
    public static final int FANOUT = 8;
    /** What a failed job could not do, in its message. */
    private static final String FAILING = "Cannot reduce the gradient";
    /** The result slices the driver holds at once while it writes a rows-kept result into a .npy. */
    static final long KEPT_DRIVER_BYTES = 256L << 20;
    /**
     * The partials the driver may hold at once to merge them itself, in the tree's shape: within this budget the
     * tree's shuffle stages (a stage start and a shuffle write and read per level) cost more than the adds.
     */
    static final long DRIVER_MERGE_BYTES = 64L << 20;

    private final Gradient gradient;
    private final ReducePlan plan;
    private final int tasks;
    private final long driverMergeBytes;

    private ReduceJob(Gradient gradient, ReducePlan plan, int tasks, long driverMergeBytes) {
        this.gradient = requireNonNull(gradient, "gradient is null");
        this.plan = requireNonNull(plan, "plan is null");
        this.tasks = tasks;
        this.driverMergeBytes = driverMergeBytes;
    }

    /**
     * A job over {@code tasks} shares of the gradient's rows (at most one task per row; at least one task).
     */
    public static ReduceJob of(Gradient gradient, ReducePlan plan, long tasks) {
        long rows = rows(plan);
        return new ReduceJob(
                gradient,
                plan,
                (int) Math.max(1, Math.min(Math.min(tasks, rows), Integer.MAX_VALUE)),
                DRIVER_MERGE_BYTES);
    }

    /** This job with another budget for merging on the driver (0: always the tree's stages), for tests. */
    ReduceJob withDriverMergeBytes(long bytes) {
        return new ReduceJob(gradient, plan, tasks, bytes);
    }

    /** The tasks that sum the gradient: {@code ceil(bytes / partitionBytes)}, or {@code partitions} when given. */
    public static long taskCount(ReducePlan plan, long partitionBytes, long partitions) {
        if (partitions > 0) {
            return Math.min(partitions, Math.max(1, rows(plan)));
        }
        long bytes = plan.output().elements() * plan.dtype().byteWidth();
        return Math.max(1, Math.min(rows(plan), (bytes + partitionBytes - 1) / partitionBytes));
    }

    private static long rows(ReducePlan plan) {
        return plan.output().rank() == 0 ? 1 : plan.output().dim(0);
    }

    /** The depth of the merge tree over {@code tasks} partials: the levels of merge tasks after the summing tasks. */
    public static int depth(long tasks) {
        int depth = 0;
        for (long count = tasks; count > 1; count = (count + FANOUT - 1) / FANOUT) {
            depth++;
        }
        return depth;
    }

    /** Runs the sums and the tree; returns the result in the input's dtype and shape. */
    public SourceTensor run(SparkSession spark, String description) {
        return run(JobEngine.spark(spark), description);
    }

    /** As {@link #run(SparkSession, String)}, with tasks on {@code engine}. */
    public SourceTensor run(JobEngine engine, String description) {
        if (plan.output().elements() == 0) {
            // an empty gradient adds nothing: the result is zeros
            return ReduceKernel.create(plan.dtype(), plan.input().elements()).result(plan.input());
        }
        return JobRun.untracked(engine, description).run(FAILING, run -> {
            GradientRows rows = run.hold(GradientRows.open(gradient, run), GradientRows::release);
            Broadcast<SerializableConfiguration> conf = run.ship(run.hadoopConfiguration());
            SumShare sumShare = new SumShare(rows, plan, tasks, rows(plan), conf);
            if (run.inDriver()) {
                // the driver's tasks, merged in index order as they come, in the tree's shape: the bits of the Spark
                // job's, holding only the pool's window of partials and one open group per level of the tree
                MergeTree tree = new MergeTree();
                run.inDriver(tasks, share -> sumShare.call((long) share)._2(), (share, partial) -> tree.add(partial));
                return tree.result().result(plan.input());
            }
            JavaPairRDD<Long, ReduceKernel> partials =
                    run.java().parallelize(indexes(tasks), tasks).mapToPair(sumShare);
            if (mergesOnDriver(plan, tasks, driverMergeBytes)) {
                List<ReduceKernel> sums = new ArrayList<>(tasks);
                for (Tuple2<Long, ReduceKernel> partial : partials.collect()) {
                    sums.add(partial._2());
                }
                return mergeTree(sums).result(plan.input());
            }
            long count = tasks;
            while (count > 1) {
                int groups = (int) ((count + FANOUT - 1) / FANOUT);
                partials = partials.repartitionAndSortWithinPartitions(new PartialGroups(groups, FANOUT))
                        .mapPartitionsToPair(ReduceJob::mergeInOrder, true);
                count = groups;
            }
            List<Tuple2<Long, ReduceKernel>> last = partials.collect();
            return last.get(0)._2().result(plan.input());
        });
    }

    /** Whether {@code tasks} partials fit {@code budget} bytes (a complex partial holds two doubles each). */
    static boolean mergesOnDriver(ReducePlan plan, int tasks, long budget) {
        return tasks > 1 && (double) tasks * plan.input().elements() * 16 <= budget;
    }

    /**
     * The partials, in index order, merged in the tree the job's stages would merge them in: each level adds the
     * {@link #FANOUT} consecutive partials of a group into its first, in index order, so the bits are the same.
     */
    static ReduceKernel mergeTree(List<ReduceKernel> partials) {
        List<ReduceKernel> level = partials;
        while (level.size() > 1) {
            List<ReduceKernel> next = new ArrayList<>((level.size() + FANOUT - 1) / FANOUT);
            for (int first = 0; first < level.size(); first += FANOUT) {
                ReduceKernel sum = level.get(first);
                for (int i = first + 1; i < Math.min(level.size(), first + FANOUT); i++) {
                    sum.merge(level.get(i));
                }
                next.add(sum);
            }
            level = next;
        }
        return level.get(0);
    }

    /**
     * {@link #mergeTree} fed one partial at a time, in index order: each level keeps only its open group (the sum of
     * its first partials so far); a group that has {@link #FANOUT} partials goes up a level as the next level's next
     * partial. Every add is the one {@link #mergeTree} does, in its order, so the bits are the same.
     */
    static final class MergeTree {
        /** Per level, the open group's sum, and how many partials it holds. */
        private final List<ReduceKernel> open = new ArrayList<>();

        private final List<Integer> held = new ArrayList<>();

        void add(ReduceKernel partial) {
            add(0, partial);
        }

        private void add(int level, ReduceKernel partial) {
            if (level == open.size()) {
                open.add(null);
                held.add(0);
            }
            if (held.get(level) == 0) {
                open.set(level, partial);
            } else {
                open.get(level).merge(partial);
            }
            held.set(level, held.get(level) + 1);
            if (held.get(level) == FANOUT) {
                ReduceKernel full = open.get(level);
                open.set(level, null);
                held.set(level, 0);
                add(level + 1, full);
            }
        }

        /**
         * The sum: the open groups closed from the bottom up, each going up as its level's last partial, as the
         * tree's last (short) group of each level does.
         */
        ReduceKernel result() {
            ReduceKernel carried = null;
            for (int level = 0; level < open.size(); level++) {
                ReduceKernel group = open.get(level);
                if (carried != null) {
                    if (group == null) {
                        group = carried;
                    } else {
                        group.merge(carried);
                    }
                }
                carried = group;
            }
            if (carried == null) {
                throw new IllegalStateException("no partials were added");
            }
            return carried;
        }
    }

    private static List<Long> indexes(int count) {
        return LongStream.range(0, count).boxed().toList();
    }

    /** One merge group, sorted by partial index: merged in that order into the first. */
    private static Iterator<Tuple2<Long, ReduceKernel>> mergeInOrder(Iterator<Tuple2<Long, ReduceKernel>> group) {
        if (!group.hasNext()) {
            return List.<Tuple2<Long, ReduceKernel>>of().iterator();
        }
        Tuple2<Long, ReduceKernel> first = group.next();
        ReduceKernel sum = first._2();
        while (group.hasNext()) {
            sum.merge(group.next()._2());
        }
        List<Tuple2<Long, ReduceKernel>> merged = new ArrayList<>(1);
        merged.add(new Tuple2<>(first._1() / FANOUT, sum));
        return merged.iterator();
    }

    /** Task {@code p}: gradient rows {@code [p * rows / tasks, (p + 1) * rows / tasks)} into a zero partial. */
    private record SumShare(
            GradientRows gradient, ReducePlan plan, int tasks, long rows, Broadcast<SerializableConfiguration> conf)
            implements org.apache.spark.api.java.function.PairFunction<Long, Long, ReduceKernel> {
        @Override
        public Tuple2<Long, ReduceKernel> call(Long share) {
            Configuration hadoop = conf.value().value();
            InjectedFailure.maybeDelay(TaskContext.get(), hadoop, share);
            InjectedFailure.maybeFail(TaskContext.get(), hadoop, share);
            long first = Math.multiplyExact(share, rows) / tasks;
            long end = Math.multiplyExact(share + 1, rows) / tasks;
            ReduceKernel partial =
                    ReduceKernel.create(plan.dtype(), plan.input().elements());
            gradient.reduce(plan, first, end, partial, 0, hadoop);
            return new Tuple2<>(share, partial);
        }
    }

    /**
     * The rows-kept regime into one stream (a {@code .npy}'s data): task {@code p} sums the gradient rows of result
     * partition {@code p} and returns its bytes; the driver writes them in partition order, a group of partitions at
     * a time (at most {@link #KEPT_DRIVER_BYTES} of them).
     */
    public static void writeKept(
            SparkSession spark,
            Gradient gradient,
            ReducePlan plan,
            PartitionPlan partitions,
            String description,
            OutputStream out)
            throws IOException {
        writeKept(JobEngine.spark(spark), gradient, plan, partitions, description, out);
    }

    /** As {@link #writeKept(SparkSession, Gradient, ReducePlan, PartitionPlan, String, OutputStream)}, on {@code engine}. */
    public static void writeKept(
            JobEngine engine,
            Gradient gradient,
            ReducePlan plan,
            PartitionPlan partitions,
            String description,
            OutputStream out)
            throws IOException {
        int count = Math.toIntExact(partitions.partitionCount());
        // a failure to write the stream is the stream's, not the Spark job's
        JobRun.untracked(engine, description).run(FAILING, IOException.class, run -> {
            TaskSource.FromReduction source = run.hold(
                    (TaskSource.FromReduction) new JobSource.Reduced(gradient, plan).open(run), TaskSource::release);
            KeptSlice task = new KeptSlice(source, partitions, run.ship(run.hadoopConfiguration()));
            if (run.inDriver()) {
                // the driver's tasks on its pool, each slice written in partition order once it and those before it
                // are summed, while the next ones are
                run.inDriver(count, index -> task.call((long) index), (index, slice) -> out.write(slice));
                return null;
            }
            JavaRDD<byte[]> slices =
                    run.java().parallelize(indexes(count), count).map(task);
            // as many slices per job as the driver's budget holds: each job is a barrier (its start, then the
            // driver writes while no task runs), so a group of only as many as run at once left the cores idle
            long sliceBytes = Math.max(1, partitions.bytes() / count);
            int group = (int) Math.max(1, Math.min(count, KEPT_DRIVER_BYTES / sliceBytes));
            for (int first = 0; first < count; first += group) {
                int[] ids =
                        IntStream.range(first, Math.min(count, first + group)).toArray();
                for (List<byte[]> slice : slices.collectPartitions(ids)) {
                    for (byte[] bytes : slice) {
                        out.write(bytes);
                    }
                }
            }
            return null;
        });
    }

    /** The bytes of one result partition, cut from the whole rows it lies in. */
    private record KeptSlice(
            TaskSource.FromReduction source, PartitionPlan partitions, Broadcast<SerializableConfiguration> conf)
            implements Function<Long, byte[]> {
        @Override
        public byte[] call(Long index) {
            Configuration hadoop = conf.value().value();
            InjectedFailure.maybeDelay(TaskContext.get(), hadoop, index);
            InjectedFailure.maybeFail(TaskContext.get(), hadoop, index);
            Partition partition = partitions.partition(index);
            TaskSource.ReducedRows rows = source.rows(partition, hadoop);
            int width = rows.slice().dtype().byteWidth();
            int from = Math.toIntExact((partition.firstElement() - rows.origin()) * width);
            int to = Math.toIntExact((partition.endElement() - rows.origin()) * width);
            byte[] values = rows.slice().values();
            // a partition of whole rows is the summed rows' own bytes, made for this task: no copy of them
            return from == 0 && to == values.length ? values : java.util.Arrays.copyOfRange(values, from, to);
        }
    }
}
