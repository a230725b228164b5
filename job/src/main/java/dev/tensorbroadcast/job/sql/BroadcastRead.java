package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.SourceLimits;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowSourceOptions;
import dev.tensorbroadcast.arrowio.source.DatasetSlices;
import dev.tensorbroadcast.job.source.LoadedSource;
import dev.tensorbroadcast.job.source.SourceLoader;
import dev.tensorbroadcast.planner.BroadcastPlan;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.SourceRows;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.types.StructType;

/**
 * A broadcast the driver has read and planned: its source on the heap (shipped once to the executors), the plan, and
 * its partitions, which are the table's input partitions.
 */
record BroadcastRead(String input, SourceTensor source, BroadcastPlan plan, PartitionPlan partitions) {
    BroadcastRead {
        requireNonNull(input, "input is null");
        requireNonNull(source, "source is null");
        requireNonNull(plan, "plan is null");
        requireNonNull(partitions, "partitions is null");
    }

    /** Reads the source through {@code conf} and plans; refused as the command line refuses the same request. */
    static BroadcastRead prepare(ReadOptions options, Configuration conf) {
        ArrowSourceOptions arrow =
                options.column().map(ArrowSourceOptions.defaults()::withColumn).orElse(ArrowSourceOptions.defaults());
        SourceLoader loader = new SourceLoader(conf, SourceLimits.defaults(), arrow, options.rowShape());
        LoadedSource loaded = loader.load(options.input());
        if (options.rowShape().isPresent() && loaded.dataset() == null) {
            throw SourceLoader.rowShapeOnNpy(options.rowShape().get(), options.input());
        }
        BroadcastRequest request =
                options.request().input(loaded.shape(), loaded.dtype()).build();
        BroadcastPlan plan = request.plan();
        PartitionPlan.Builder partitioning =
                PartitionPlan.builder(plan.output(), loaded.dtype()).elementBits(loaded.sizingBits());
        options.partitions().ifPresent(partitioning::partitions);
        PartitionPlan partitions = partitioning.build();
        // a table's source is its input tensor, read once here as toDataset reads it, and shipped to the executors
        SourceTensor source = loaded.tensor() != null
                ? loaded.tensor()
                : DatasetSlices.read(
                                loaded.dataset(),
                                new SourceRows(0, loaded.dataset().rows()),
                                conf)
                        .tensor();
        return new BroadcastRead(options.input(), source, plan, partitions);
    }

    StructType schema() {
        return SparkTypes.schema(source.dtype(), source.hasNulls(), partitions.rowShape());
    }
}
