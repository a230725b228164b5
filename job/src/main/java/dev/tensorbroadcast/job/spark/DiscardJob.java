package dev.tensorbroadcast.job.spark;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.job.Reasons;
import dev.tensorbroadcast.job.manifest.ManifestShapes;
import dev.tensorbroadcast.job.sink.FileOptions;
import dev.tensorbroadcast.job.source.JobSource;
import dev.tensorbroadcast.job.source.TaskSource;
import dev.tensorbroadcast.planner.BroadcastException;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.PartitionPlan;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.util.LongAccumulator;
import org.apache.spark.util.SerializableConfiguration;

/**
 * The driver's side of the null sink ({@code --format null}): the same source broadcast, partitions and tasks as
 * {@link DatasetJob}, but each task fills its partition and discards it; no output directory, no files, no commit.
 * It measures what the broadcast costs apart from the disk.
 */
public final class DiscardJob {
    /** The name {@code --format} gives the null sink. */
    public static final String FORMAT_NAME = "null";

    private final JobSource source;
    private final PartitionPlan partitions;
    private final CopyProgram program;
    private final String description;

    private DiscardJob(JobSource source, PartitionPlan partitions, CopyProgram program, String description) {
        this.source = requireNonNull(source, "source is null");
        this.partitions = requireNonNull(partitions, "partitions is null");
        this.program = requireNonNull(program, "program is null");
        this.description = requireNonNull(description, "description is null");
    }

    /** The null sink for {@code source}, shipped whole or read in slices by the tasks as the writers read it. */
    public static DiscardJob of(JobSource source, CopyProgram program, PartitionPlan partitions,
            String description) {
        return new DiscardJob(source, partitions, program, description);
    }

    public DiscardedDataset run(SparkSession spark, JobProgress progress) {
        SparkContext context = spark.sparkContext();
        JavaSparkContext java = JavaSparkContext.fromSparkContext(context);
        int partitionCount = Math.toIntExact(partitions.partitionCount());
        String group = "tensor-broadcast-" + UUID.randomUUID();
        LongAccumulator bytesFilled = context.longAccumulator("tensor-broadcast bytes filled");
        ProgressListener listener = new ProgressListener(group, bytesFilled, progress);
        // the format and codec are not used by the null sink's tasks
        DatasetSpec spec = new DatasetSpec(partitions, program, FileOptions.defaults(), null);
        List<DiscardedPartition> discarded;
        TaskSource taskSource = null;
        Broadcast<SerializableConfiguration> conf = null;
        context.addSparkListener(listener);
        try {
            taskSource = source.open(java);
            conf = java.broadcast(
                    new SerializableConfiguration(context.hadoopConfiguration()));
            context.setJobGroup(group, description, false);
            progress.started(description, partitionCount, partitions.bytes());
            List<Integer> indexes = IntStream.range(0, partitionCount).boxed().toList();
            discarded = java.parallelize(indexes, partitionCount)
                    .mapPartitionsWithIndex(new DiscardTask(taskSource, spec, conf, bytesFilled), false).collect();
            listener.completed(partitionCount);
        } catch (Exception failure) {
            BroadcastException refused = DatasetJob.refusal(failure);
            if (refused != null) {
                // a malformed source found by a task, as the writing jobs report it
                throw refused;
            }
            throw new JobFailedException("Cannot compute the broadcast: the Spark job failed: " + Reasons.of(failure),
                    failure);
        } finally {
            context.clearJobGroup();
            context.removeSparkListener(listener);
            progress.finished();
            if (taskSource != null) {
                taskSource.release();
            }
            if (conf != null) {
                Broadcasts.destroy(conf);
            }
        }
        List<DiscardedPartition> sorted = new ArrayList<>(discarded);
        sorted.sort(Comparator.comparingLong(DiscardedPartition::partition));
        return new DiscardedDataset(ManifestShapes.list(partitions.output()), source.dtype().typeName(),
                partitions.rows(), partitions.bytes(), sorted);
    }
}
