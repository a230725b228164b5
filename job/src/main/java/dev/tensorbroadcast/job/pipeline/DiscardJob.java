package dev.tensorbroadcast.job.pipeline;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.job.base.DiscardedBroadcast;
import dev.tensorbroadcast.job.base.Progress;
import dev.tensorbroadcast.job.manifest.ManifestShapes;
import dev.tensorbroadcast.job.sink.FileOptions;
import dev.tensorbroadcast.job.source.JobSource;
import dev.tensorbroadcast.job.source.TaskSource;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.PartitionPlan;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.sql.SparkSession;

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
    public static DiscardJob of(JobSource source, CopyProgram program, PartitionPlan partitions, String description) {
        return new DiscardJob(source, partitions, program, description);
    }

    public DiscardedBroadcast run(SparkSession spark, Progress progress) {
        return run(JobEngine.spark(spark), progress);
    }

    /** Computes and discards the broadcast with tasks on {@code engine}. */
    public DiscardedBroadcast run(JobEngine engine, Progress progress) {
        int partitionCount = Math.toIntExact(partitions.partitionCount());
        // the format and codec are not used by the null sink's tasks
        DatasetSpec spec = new DatasetSpec(partitions, program, FileOptions.defaults(), null, null);
        JobRun.Tracking tracking =
                new JobRun.Tracking(progress, "tensor-broadcast bytes filled", partitionCount, partitions.bytes());
        List<DiscardedBroadcast.Partition> discarded = JobRun.tracked(engine, description, tracking)
                .run("Cannot compute the broadcast", run -> {
                    TaskSource taskSource = run.hold(source.open(run), TaskSource::release);
                    DiscardTask task =
                            new DiscardTask(taskSource, spec, run.ship(run.hadoopConfiguration()), run.values());
                    return run.tasks(partitionCount, task);
                });
        List<DiscardedBroadcast.Partition> sorted = new ArrayList<>(discarded);
        sorted.sort(Comparator.comparingLong(DiscardedBroadcast.Partition::partition));
        return new DiscardedBroadcast(
                ManifestShapes.list(partitions.output()),
                source.dtype().typeName(),
                partitions.rows(),
                partitions.bytes(),
                sorted);
    }
}
