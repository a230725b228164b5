package dev.tensorbroadcast.job.pipeline;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.job.base.Progress;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.Success$;
import org.apache.spark.scheduler.AccumulableInfo;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorMetricsUpdate;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.util.LongAccumulator;
import scala.Option;
import scala.Tuple4;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Follows one job (recognised by its job group) and passes its finished tasks and the bytes of values done so far to
 * a {@link Progress}: what each finished task added to the accumulator, as its end event says, plus what running
 * tasks have added, as executors report with their heartbeats. So a job of one huge partition still moves before its
 * task ends. Both come from the listener bus, in one order; the driver's merged total is not read while the job runs,
 * since it can already hold a task's share before that task's end event arrives (it would count twice). The job's end
 * is reported once by {@link #completed}, from the driver's total, and events still on their way are then ignored.
 */
final class ProgressListener extends SparkListener {
    private static final String JOB_GROUP = "spark.jobGroup.id";

    private final String jobGroup;
    private final LongAccumulator values;
    private final Progress progress;
    private final Set<Integer> stages = ConcurrentHashMap.newKeySet();
    /** Partitions whose task succeeded: a speculative copy that also succeeds is not counted again. */
    private final Set<Integer> finishedPartitions = new HashSet<>();
    /** The bytes of values the finished tasks added. */
    private long finishedValues;
    /** A running task's share of {@link #values}, by task id, as its last heartbeat said. */
    private final Map<Long, Long> running = new HashMap<>();
    /**
     * Every task that ended: a heartbeat taken before a task ended may come after its end, and must not count the
     * task again. One entry per task, which the task-count guard bounds.
     */
    private final Set<Long> ended = new HashSet<>();

    private boolean completed;

    ProgressListener(String jobGroup, LongAccumulator values, Progress progress) {
        this.jobGroup = requireNonNull(jobGroup, "jobGroup is null");
        this.values = requireNonNull(values, "values is null");
        this.progress = requireNonNull(progress, "progress is null");
    }

    @Override
    public void onStageSubmitted(SparkListenerStageSubmitted stageSubmitted) {
        if (stageSubmitted.properties() != null
                && jobGroup.equals(stageSubmitted.properties().getProperty(JOB_GROUP))) {
            stages.add(stageSubmitted.stageInfo().stageId());
        }
    }

    @Override
    public synchronized void onExecutorMetricsUpdate(SparkListenerExecutorMetricsUpdate update) {
        if (completed) {
            return;
        }
        boolean heard = false;
        for (Tuple4<Object, Object, Object, Seq<AccumulableInfo>> task :
                CollectionConverters.asJava(update.accumUpdates())) {
            if (!stages.contains((Integer) task._2())) {
                continue;
            }
            Long taskId = (Long) task._1();
            OptionalLong bytes = ourUpdate(task._4());
            if (bytes.isPresent() && !ended.contains(taskId)) {
                running.put(taskId, bytes.getAsLong());
                heard = true;
            }
        }
        if (heard) {
            report();
        }
    }

    @Override
    public synchronized void onTaskEnd(SparkListenerTaskEnd taskEnd) {
        if (completed || !stages.contains(taskEnd.stageId())) {
            return;
        }
        long taskId = taskEnd.taskInfo().taskId();
        ended.add(taskId);
        running.remove(taskId);
        // a failed task's share is not in the total, and its retry starts over
        if (taskEnd.reason() == Success$.MODULE$
                && finishedPartitions.add(taskEnd.taskInfo().index())) {
            finishedValues += ourUpdate(taskEnd.taskInfo().accumulables()).orElse(0);
            report();
        }
    }

    /** The job has ended with every task done: reports the driver's total, the last report. */
    synchronized void completed(long tasks) {
        completed = true;
        progress.advanced(tasks, values.value());
    }

    /** What a task added to {@link #values}, among the accumulator updates it carries. */
    private OptionalLong ourUpdate(scala.collection.Seq<AccumulableInfo> accumulables) {
        for (AccumulableInfo accumulable : CollectionConverters.asJava(accumulables)) {
            Option<Object> update = accumulable.update();
            if (accumulable.id() == values.id() && update.isDefined() && update.get() instanceof Long bytes) {
                return OptionalLong.of(bytes);
            }
        }
        return OptionalLong.empty();
    }

    private void report() {
        progress.advanced(
                finishedPartitions.size(),
                finishedValues
                        + running.values().stream().mapToLong(Long::longValue).sum());
    }
}
