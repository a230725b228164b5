package dev.tensorbroadcast.job.store.s3;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.job.store.PendingCommitter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.s3a.commit.CommitConstants;
import org.apache.hadoop.fs.s3a.commit.files.PendingSet;
import org.apache.hadoop.fs.s3a.commit.files.SinglePendingCommit;
import org.apache.hadoop.fs.s3a.commit.impl.CommitContext;
import org.apache.hadoop.fs.s3a.commit.magic.MagicS3GuardCommitter;
import org.apache.hadoop.fs.statistics.IOStatisticsSnapshot;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.hadoop.util.functional.TaskPool;

/**
 * S3A's magic committer, with the store requests it makes per task cut to none beyond the file's own upload, and its
 * job commit to the completions. S3A's own committer sets each task up with a delete and a directory marker, probes
 * the attempt's directory at commit, saves the task's pending uploads as a {@code .pendingset} object, deletes the
 * attempt's directory; and the job's commit lists, reads and at cleanup deletes one {@code .pendingset} per task (one
 * request each, and one delete per object where the server takes no bulk delete). Here a task's commit takes its
 * pending uploads from the committer's memory (or its {@code .pending} objects) and hands them to the driver inside
 * Spark's task commit message ({@code commit.DatasetCommitProtocol}); the driver's job commit completes exactly those, in
 * parallel ({@code fs.s3a.committer.threads}), straight from the messages (nothing saved, listed or read back), then
 * cleans up as S3A does (aborting every other pending upload under the output). Which attempt of a partition commits
 * is still Spark's output commit coordinator's word; an attempt whose message never reaches the driver (its executor
 * lost) leaves an upload that no reader sees and the job's cleanup aborts.
 */
final class MagicCommitter extends MagicS3GuardCommitter implements PendingCommitter {
    /** What a task's message may hold: S3A's upload records, their statistics, and the JDK's collections. */
    private static final ObjectInputFilter UPLOADS = ObjectInputFilter.Config.createFilter(
            "java.util.*;java.lang.*;org.apache.hadoop.fs.s3a.commit.files.*;org.apache.hadoop.fs.statistics.*;!*");

    /** The pending uploads the last {@link #commitTask} took; in the driver, the job's ({@link #stage}). */
    private List<SinglePendingCommit> committed;
    /** Whether {@link #committed} is the job's, staged for its commit, rather than a task's. */
    private boolean staged;
    /** Whether the staged uploads are in a commit record: a failed completion then aborts and reverts nothing. */
    private boolean recorded;

    MagicCommitter(Path output, TaskAttemptContext context) throws IOException {
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
        conf.setBoolean(
                CommitConstants.FS_S3A_COMMITTER_MAGIC_TRACK_COMMITS_IN_MEMORY_ENABLED,
                getDestFS()
                        .getConf()
                        .getBoolean(CommitConstants.FS_S3A_COMMITTER_MAGIC_TRACK_COMMITS_IN_MEMORY_ENABLED, false));
        PendingSet pending = loadPendingCommits(new TaskAttemptContextImpl(conf, context.getTaskAttemptID()));
        committed = new ArrayList<>(pending.getCommits());
        staged = false;
    }

    /**
     * The pending uploads the last {@link #commitTask} took, as bytes for Spark's task commit message: Java's
     * serialization of S3A's own records (one JSON mapper made per task and per message, as S3A's serializer does,
     * cost the driver seconds at a thousand tasks), without the write's statistics, which nothing here reads.
     */
    @Override
    public byte[] committedBytes() throws IOException {
        requireNonNull(committed, "no task was committed");
        ArrayList<SinglePendingCommit> uploads = new ArrayList<>();
        for (SinglePendingCommit commit : committed) {
            commit.setIOStatistics(new IOStatisticsSnapshot());
            uploads.add(commit);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(uploads);
        }
        return bytes.toByteArray();
    }

    /**
     * Stages the driver's job commit of the tasks' pending uploads ({@link #committedBytes} of each committed task),
     * which {@link #commitJob} then completes.
     */
    @Override
    public void stage(List<byte[]> tasks) throws IOException {
        List<SinglePendingCommit> all = new ArrayList<>();
        for (byte[] task : tasks) {
            try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(task))) {
                in.setObjectInputFilter(UPLOADS);
                for (Object commit : (List<?>) in.readObject()) {
                    SinglePendingCommit upload = (SinglePendingCommit) commit;
                    upload.validate();
                    all.add(upload);
                }
            } catch (ClassNotFoundException e) {
                throw new IOException("cannot read a task's pending uploads: " + e.getMessage(), e);
            }
        }
        committed = all;
        staged = true;
    }

    /** The staged uploads as S3A's own {@code .pendingset} JSON, which {@link S3Store#completeRecorded} reads. */
    @Override
    public byte[] record() throws IOException {
        if (!staged) {
            throw new IllegalStateException("no job commit is staged");
        }
        PendingSet set = new PendingSet();
        set.setJobId(getUUID());
        committed.forEach(set::add);
        recorded = true;
        return set.toBytes(PendingSet.serializer());
    }

    /** The staged uploads are the job's, in memory: nothing to list (S3A lists the job's {@code .pendingset}s). */
    @Override
    protected ActiveCommit listPendingUploadsToCommit(CommitContext context) throws IOException {
        return staged ? ActiveCommit.empty() : super.listPendingUploadsToCommit(context);
    }

    /**
     * Completes the staged uploads, as S3A completes a {@code .pendingset}'s: in parallel; on the first failure the
     * rest are aborted and the completed ones deleted again, and the job fails. The job's magic directory (directory
     * markers, or the tasks' {@code .pending} objects, all read by now) goes first: S3A deletes it after the
     * completions, when the deletion's check of the output directory (one listing, which S3Proxy's filesystem
     * backend answers by reading every object of it) would pay for the thousand new files.
     */
    @Override
    protected void commitPendingUploads(CommitContext context, ActiveCommit pending) throws IOException {
        if (!staged) {
            super.commitPendingUploads(context, pending);
            return;
        }
        super.cleanupStagingDirs();
        if (recorded) {
            // the old dataset's markers are gone and its files are being replaced: only forward from here, by
            // this job or by the next that finishes its record; an abort would leave neither dataset
            TaskPool.foreach(committed)
                    .executeWith(context.getInnerSubmitter())
                    .stopOnFailure()
                    .suppressExceptions(false)
                    .run(context::commitOrFail);
            return;
        }
        TaskPool.foreach(committed)
                .executeWith(context.getInnerSubmitter())
                .stopOnFailure()
                .suppressExceptions(false)
                .onFailure((upload, failure) -> context.abortSingleCommit(upload))
                .abortWith(context::abortSingleCommit)
                .revertWith(context::revertCommit)
                .run(context::commitOrFail);
    }

    /** Done before the completions in the job's commit ({@link #commitPendingUploads}); S3A's own elsewhere. */
    @Override
    public void cleanupStagingDirs() {
        if (!staged) {
            super.cleanupStagingDirs();
        }
    }
}
