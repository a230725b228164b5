package dev.tensorbroadcast.job.spark;

import static java.util.Objects.requireNonNull;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.Success$;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.util.LongAccumulator;

/**
 * Counts the finished tasks of one job (recognised by its job group) and passes the count and the bytes written so
 * far (an accumulator the tasks add to) to a {@link JobProgress}.
 */
final class ProgressListener extends SparkListener {
    private static final String JOB_GROUP = "spark.jobGroup.id";

    private final String jobGroup;
    private final LongAccumulator bytesWritten;
    private final JobProgress progress;
    private final Set<Integer> stages = ConcurrentHashMap.newKeySet();
    private final AtomicLong done = new AtomicLong();

    ProgressListener(String jobGroup, LongAccumulator bytesWritten, JobProgress progress) {
        this.jobGroup = requireNonNull(jobGroup, "jobGroup is null");
        this.bytesWritten = requireNonNull(bytesWritten, "bytesWritten is null");
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
    public void onTaskEnd(SparkListenerTaskEnd taskEnd) {
        if (stages.contains(taskEnd.stageId()) && taskEnd.reason() == Success$.MODULE$) {
            progress.advanced(done.incrementAndGet(), bytesWritten.value());
        }
    }
}
