package dev.tensorbroadcast.job.commit;

import dev.tensorbroadcast.job.manifest.Manifest;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.spark.internal.io.FileNameSpec;
import org.apache.spark.internal.io.HadoopMapReduceCommitProtocol;

/**
 * Spark's commit protocol over Hadoop's {@code FileOutputCommitter}, unchanged except for the file names: a
 * partition's file is {@code part-NNNNN} plus the extension, without Spark's job id, so the names of a dataset
 * depend only on the plan. Retried and speculative attempts write into their own attempt directories; the committer
 * promotes exactly one attempt per partition.
 */
public class DatasetCommitProtocol extends HadoopMapReduceCommitProtocol {
    private static final long serialVersionUID = 1L;

    public DatasetCommitProtocol(String jobId, String path, boolean dynamicPartitionOverwrite) {
        super(jobId, path, dynamicPartitionOverwrite);
    }

    /** The file name of a partition. */
    public static String fileName(long partition, String extension) {
        return Manifest.partFileName(partition, extension);
    }

    @Override
    public String getFilename(TaskAttemptContext taskContext, FileNameSpec spec) {
        return spec.prefix() + fileName(taskContext.getTaskAttemptID().getTaskID().getId(), spec.suffix());
    }
}
