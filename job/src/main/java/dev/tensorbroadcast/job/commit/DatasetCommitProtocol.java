package dev.tensorbroadcast.job.commit;

import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.store.PendingCommitter;
import dev.tensorbroadcast.job.store.Stores;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.apache.spark.internal.io.FileCommitProtocol.TaskCommitMessage;
import org.apache.spark.internal.io.FileNameSpec;
import org.apache.spark.internal.io.HadoopMapReduceCommitProtocol;
import scala.Option;
import scala.Tuple2;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Spark's commit protocol over the committer Hadoop's output format picks for the output's file system: Hadoop's
 * {@code FileOutputCommitter} (renames) on local disks and HDFS, S3A's magic committer (uploads completed at the
 * job's commit) on {@code s3a://}: the one its store gives ({@link dev.tensorbroadcast.job.store.Store#committer}). Changed only in
 * the file names, a partition's file being {@code part-NNNNN} plus the extension, without Spark's job id, so the
 * names of a dataset depend only on the plan; and in where a task writes under a committer other than
 * {@code FileOutputCommitter}: its work path, as that committer says. Retried and speculative attempts write into
 * their own attempt paths; the committer makes exactly one attempt per partition visible. A store's
 * {@link PendingCommitter} (S3A's magic one) has its tasks' pending uploads travel to the driver in their commit
 * messages.
 */
public class DatasetCommitProtocol extends HadoopMapReduceCommitProtocol {
    private static final long serialVersionUID = 1L;

    /** The committer of this JVM's job or task; Spark's own field for it is private. */
    private transient OutputCommitter committer;
    /** The partition directories a task of a job in the driver wrote into, for its commit message. */
    private transient Set<String> partitionPaths;

    private final String output;
    /** Whether the tasks run on the driver's threads, without Spark (its engine says so: {@link #tasksInDriver}). */
    private boolean tasksInDriver;

    public DatasetCommitProtocol(String jobId, String path, boolean dynamicPartitionOverwrite) {
        super(jobId, path, dynamicPartitionOverwrite);
        this.output = path;
    }

    /** A task's commit message under a {@link PendingCommitter}: Spark's own, and the task's pending work. */
    @SuppressWarnings("ArrayRecordComponent") // a serialized task message, never compared
    private record PendingUploads(Object spark, byte[] uploads) implements Serializable {}

    /** Tells the protocol, before it is shipped, that its tasks run on the driver's threads without Spark. */
    public void tasksInDriver(boolean inDriver) {
        this.tasksInDriver = inDriver;
    }

    /** The file name of a partition. */
    public static String fileName(long partition, String extension) {
        return Manifest.partFileName(partition, extension);
    }

    @Override
    public OutputCommitter setupCommitter(TaskAttemptContext context) {
        try {
            committer = Stores.forPath(new Path(output))
                    .committer(new Path(output), context)
                    .orElse(null);
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
        if (committer == null) {
            committer = super.setupCommitter(context);
        }
        return committer;
    }

    /** Under a {@link PendingCommitter}, the message carries the task's pending work to the driver's job commit. */
    @Override
    public TaskCommitMessage commitTask(TaskAttemptContext taskContext) {
        TaskCommitMessage message = tasksInDriver ? commitDriverTask(taskContext) : super.commitTask(taskContext);
        if (committer instanceof PendingCommitter pending) {
            try {
                return new TaskCommitMessage(new PendingUploads(message.obj(), pending.committedBytes()));
            } catch (IOException e) {
                throw new UncheckedIOException(e.getMessage(), e);
            }
        }
        return message;
    }

    /** Under a {@link PendingCommitter}, the committed tasks' pending work is staged for its job commit first. */
    @Override
    public void commitJob(JobContext jobContext, Seq<TaskCommitMessage> taskCommits) {
        try {
            commitJob(jobContext, taskCommits, staged -> {});
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
    }

    /**
     * What a job's commit does once the tasks' work is staged and before any of it becomes visible: write the
     * commit record from {@code staged} (a {@link PendingCommitter}'s, else empty), take the old dataset's markers.
     */
    public interface BeforeCompletion {
        void run(Optional<PendingCommitter> staged) throws IOException;
    }

    /** As {@link #commitJob(JobContext, Seq)}, with {@code before} run between the staging and the completion. */
    public void commitJob(JobContext jobContext, Seq<TaskCommitMessage> taskCommits, BeforeCompletion before)
            throws IOException {
        if (committer instanceof PendingCommitter magic) {
            List<byte[]> pending = new ArrayList<>();
            List<TaskCommitMessage> messages = new ArrayList<>();
            for (TaskCommitMessage message : CollectionConverters.asJava(taskCommits)) {
                PendingUploads uploads = (PendingUploads) message.obj();
                pending.add(uploads.uploads());
                messages.add(new TaskCommitMessage(uploads.spark()));
            }
            magic.stage(pending);
            before.run(Optional.of(magic));
            super.commitJob(jobContext, CollectionConverters.asScala(messages).toSeq());
            return;
        }
        before.run(Optional.empty());
        super.commitJob(jobContext, taskCommits);
    }

    /**
     * A {@code FileOutputCommitter}'s task writes where Spark puts it; any other committer's (S3A's magic one) in
     * the work path the committer gives its attempt, where Spark would write the final path directly.
     */
    @Override
    public String newTaskTempFile(TaskAttemptContext taskContext, Option<String> dir, FileNameSpec spec) {
        if (dir.isDefined()) {
            if (partitionPaths == null) {
                partitionPaths = new LinkedHashSet<>();
            }
            partitionPaths.add(dir.get());
        }
        if (committer instanceof PathOutputCommitter pathCommitter && !(committer instanceof FileOutputCommitter)) {
            try {
                Path workPath = pathCommitter.getWorkPath();
                // a partitioned output's file goes under its key=value directories, as Spark puts it
                Path parent = dir.isDefined() ? new Path(workPath, dir.get()) : workPath;
                return new Path(parent, getFilename(taskContext, spec)).toString();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return super.newTaskTempFile(taskContext, dir, spec);
    }

    /**
     * An object store's job that failed (its server gone, say) cannot be aborted either: Spark would log that as a
     * second error after the job's own. Its uncompleted uploads are invisible to every reader, and the next job on
     * the output, or the bucket's rule for incomplete uploads, removes them.
     */
    @Override
    public void abortJob(JobContext jobContext) {
        if (committer instanceof PathOutputCommitter && !(committer instanceof FileOutputCommitter)) {
            try {
                committer.abortJob(jobContext, JobStatus.State.FAILED);
            } catch (IOException | RuntimeException unreachable) {
                // the job's failure is what the user is told
            }
            return;
        }
        super.abortJob(jobContext);
    }

    /**
     * A task the driver calls itself (a job on the driver's threads without Spark, which has no {@code SparkEnv}) is its partition's
     * only attempt: there is no other attempt for the driver's commit coordinator to arbitrate, so the committer
     * commits it as Spark's does once the coordinator allowed it, and the message is the one Spark's would be (no
     * files at absolute paths; the partition directories written into).
     */
    private TaskCommitMessage commitDriverTask(TaskAttemptContext taskContext) {
        try {
            if (committer.needsTaskCommit(taskContext)) {
                committer.commitTask(taskContext);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Set<String> written = partitionPaths == null ? Set.of() : partitionPaths;
        return new TaskCommitMessage(new Tuple2<>(
                scala.collection.immutable.Map$.MODULE$.<String, String>empty(),
                CollectionConverters.asScala(written).toSet()));
    }

    @Override
    public String getFilename(TaskAttemptContext taskContext, FileNameSpec spec) {
        return spec.prefix()
                + fileName(taskContext.getTaskAttemptID().getTaskID().getId(), spec.suffix());
    }
}
