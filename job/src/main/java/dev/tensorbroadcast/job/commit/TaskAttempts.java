package dev.tensorbroadcast.job.commit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.spark.internal.io.FileCommitProtocol;

/** The Hadoop context of a task's attempt, for {@link DatasetCommitProtocol}'s committer: expand's tasks and the sink's. */
public final class TaskAttempts {
    private TaskAttempts() {}

    /** The Hadoop ids of an attempt, as Spark's writers set them. */
    public static TaskAttemptContextImpl context(
            Configuration base, String jobTrackerId, int jobNumber, int partition, int attempt) {
        JobID jobId = new JobID(jobTrackerId, jobNumber);
        TaskAttemptID attemptId = new TaskAttemptID(new TaskID(jobId, TaskType.MAP, partition), attempt);
        // a JobConf, which the context keeps as it is: from a Configuration it would copy every property a second time
        JobConf hadoop = new JobConf(base);
        hadoop.set("mapreduce.job.id", jobId.toString());
        hadoop.set("mapreduce.task.id", attemptId.getTaskID().toString());
        hadoop.set("mapreduce.task.attempt.id", attemptId.toString());
        hadoop.setBoolean("mapreduce.task.ismap", true);
        hadoop.setInt("mapreduce.task.partition", 0);
        return new TaskAttemptContextImpl(hadoop, attemptId);
    }

    /**
     * Aborts the attempt of a task that failed with {@code failure}, as Spark's writers do; an abort that fails too is
     * added to {@code failure}, which the caller throws: the task's own failure is what its job reports.
     */
    public static void abort(FileCommitProtocol committer, TaskAttemptContext context, Throwable failure) {
        try {
            committer.abortTask(context);
        } catch (RuntimeException abortFailure) {
            failure.addSuppressed(abortFailure);
        }
    }
}
