package dev.tensorbroadcast.job.spark;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
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
 * a {@link JobProgress}: the accumulator the tasks add to batch by batch, whose finished tasks' sum the driver holds,
 * plus what running tasks have added, which executors report with their heartbeats. So a job of one huge partition
 * still moves before its task ends.
 */
final class ProgressListener extends SparkListener {
    private static final String JOB_GROUP = "spark.jobGroup.id";

    private final String jobGroup;
    private final LongAccumulator values;
    private final JobProgress progress;
    private final Set<Integer> stages = ConcurrentHashMap.newKeySet();
    private final AtomicLong done = new AtomicLong();
    /** A running task's share of {@link #values}, by task id, as its last heartbeat said. */
    private final Map<Long, Long> running = new ConcurrentHashMap<>();
    /**
     * Tasks that ended after a heartbeat had been heard from them: a heartbeat taken before a task ended may come
     * after its end, and must not count its share again. Short tasks are never heard, so this stays small.
     */
    private final Set<Long> ended = ConcurrentHashMap.newKeySet();

    ProgressListener(String jobGroup, LongAccumulator values, JobProgress progress) {
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
    public void onExecutorMetricsUpdate(SparkListenerExecutorMetricsUpdate update) {
        boolean heard = false;
        for (Tuple4<Object, Object, Object, Seq<AccumulableInfo>> task
                : CollectionConverters.asJava(update.accumUpdates())) {
            if (!stages.contains((Integer) task._2())) {
                continue;
            }
            for (AccumulableInfo accumulable : CollectionConverters.asJava(task._4())) {
                Option<Object> value = accumulable.update();
                Long taskId = (Long) task._1();
                if (accumulable.id() == values.id() && value.isDefined() && value.get() instanceof Long bytes
                        && !ended.contains(taskId)) {
                    running.put(taskId, bytes);
                    heard = true;
                }
            }
        }
        if (heard) {
            progress.advanced(done.get(), valuesDone());
        }
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd taskEnd) {
        if (!stages.contains(taskEnd.stageId())) {
            return;
        }
        // a finished task's share is in the accumulator now; a failed one's is not, and its retry starts over
        if (running.remove(taskEnd.taskInfo().taskId()) != null) {
            ended.add(taskEnd.taskInfo().taskId());
        }
        if (taskEnd.reason() == Success$.MODULE$) {
            progress.advanced(done.incrementAndGet(), valuesDone());
        }
    }

    private long valuesDone() {
        return values.value() + running.values().stream().mapToLong(Long::longValue).sum();
    }
}
