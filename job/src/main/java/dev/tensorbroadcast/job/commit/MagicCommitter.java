package dev.tensorbroadcast.job.commit;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.s3a.commit.CommitConstants;
import org.apache.hadoop.fs.s3a.commit.files.PendingSet;
import org.apache.hadoop.fs.s3a.commit.files.SinglePendingCommit;
import org.apache.hadoop.fs.s3a.commit.magic.MagicS3GuardCommitter;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;

/**
 * S3A's magic committer, with the store requests it makes per task cut to none beyond the file's own upload. S3A's
 * own committer sets each task up with a delete and a directory marker, probes the attempt's directory at commit,
 * saves the task's pending uploads as a {@code .pendingset} object, deletes the attempt's directory; and the job's
 * commit lists, reads and at cleanup deletes one {@code .pendingset} per task (one request each, and one delete per
 * object where the server takes no bulk delete). Here a task's commit takes its pending uploads from the committer's
 * memory (or its {@code .pending} objects) and hands them to the driver inside Spark's task commit message
 * ({@link DatasetCommitProtocol}); the driver saves them as the job's one {@code .pendingset}, and S3A's job commit
 * completes them, in parallel ({@code fs.s3a.committer.threads}), and cleans up as before. Which attempt of a
 * partition commits is still Spark's output commit coordinator's word; an attempt whose message never reaches the
 * driver (its executor lost) leaves an upload that no reader sees and the job's cleanup aborts.
 */
public final class MagicCommitter extends MagicS3GuardCommitter {
    /** The job's one pendingset, in the job attempt's directory (which S3A's job commit lists). */
    private static final String JOB_PENDINGSET = "tasks" + CommitConstants.PENDINGSET_SUFFIX;

    private PendingSet committed;

    public MagicCommitter(Path output, TaskAttemptContext context) throws IOException {
        super(output, context);
    }

    /** Nothing to make on the store: an object store has no directories, and the attempt's uploads need none. */
    @Override
    public void setupTask(TaskAttemptContext context) {}

    /** Always: a task writes its file; asking the store whether the attempt wrote anything is a request per task. */
    @Override
    public boolean needsTaskCommit(TaskAttemptContext context) {
        return true;
    }

    /**
     * Takes the attempt's pending uploads, from memory where the file system that wrote them tracks them there, else
     * from the {@code .pending} objects beside them; writes nothing. Which of the two is the file system's choice,
     * made when it was created (a file system is cached per JVM), not this task's configuration's.
     */
    @Override
    public void commitTask(TaskAttemptContext context) throws IOException {
        Configuration conf = new Configuration(context.getConfiguration());
        conf.setBoolean(CommitConstants.FS_S3A_COMMITTER_MAGIC_TRACK_COMMITS_IN_MEMORY_ENABLED,
                getDestFS().getConf().getBoolean(
                        CommitConstants.FS_S3A_COMMITTER_MAGIC_TRACK_COMMITS_IN_MEMORY_ENABLED, false));
        committed = loadPendingCommits(new TaskAttemptContextImpl(conf, context.getTaskAttemptID()));
    }

    /** The pending uploads the last {@link #commitTask} took, as bytes for Spark's task commit message. */
    byte[] committedBytes() throws IOException {
        requireNonNull(committed, "no task was committed");
        return committed.toBytes(PendingSet.serializer());
    }

    /**
     * The driver's job commit of the tasks' pending uploads ({@link #committedBytes} of each committed task): saved
     * as one pendingset, which S3A's job commit then completes (in parallel) and cleans up.
     */
    void stageJobCommit(JobContext context, List<byte[]> tasks) throws IOException {
        PendingSet all = new PendingSet();
        all.setJobId(getUUID());
        for (byte[] task : tasks) {
            for (SinglePendingCommit commit : PendingSet.serializer().fromBytes(task).getCommits()) {
                all.add(commit);
            }
        }
        all.save(getDestFS(), new Path(getJobAttemptPath(context), JOB_PENDINGSET), PendingSet.serializer());
    }
}
