package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.SourceLimits;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowSourceOptions;
import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.arrowio.source.DatasetSlices;
import dev.tensorbroadcast.job.KeptColumnsChoice;
import dev.tensorbroadcast.job.source.KeptSpec;
import dev.tensorbroadcast.job.source.LoadedSource;
import dev.tensorbroadcast.job.source.SourceLoader;
import dev.tensorbroadcast.planner.BroadcastException;
import dev.tensorbroadcast.planner.BroadcastPlan;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.RowLineage;
import dev.tensorbroadcast.planner.SourceRows;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.types.StructType;

/**
 * A broadcast the driver has read and planned: its source on the heap (shipped once to the executors), the plan, and
 * its partitions, which are the table's input partitions.
 *
 * @param kept a dataset input's columns the table keeps after {@code tensor}, read with the source
 */
record BroadcastRead(
        String input, SourceTensor source, BroadcastPlan plan, PartitionPlan partitions, Optional<BroadcastKept> kept) {
    BroadcastRead {
        requireNonNull(input, "input is null");
        requireNonNull(source, "source is null");
        requireNonNull(plan, "plan is null");
        requireNonNull(partitions, "partitions is null");
        requireNonNull(kept, "kept is null");
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
        options.partitionBytes().ifPresent(partitioning::partitionBytes);
        options.partitions().ifPresent(partitioning::partitions);
        PartitionPlan partitions = partitioning.build();
        Optional<KeptSpec> keptSpec = keptSpec(options, loaded, plan, partitions);
        // a table's source is its input tensor, read once here as toDataset reads it, and shipped to the executors
        SourceTensor source = loaded.tensor() != null
                ? loaded.tensor()
                : DatasetSlices.read(
                                loaded.dataset(),
                                new SourceRows(0, loaded.dataset().rows()),
                                conf)
                        .tensor();
        Optional<BroadcastKept> kept = keptSpec.map(spec -> BroadcastKept.read(loaded.dataset(), spec, conf));
        return new BroadcastRead(options.input(), source, plan, partitions, kept);
    }

    /** The columns {@code expand --keep} would write next to the rows, refused in its words. */
    private static Optional<KeptSpec> keptSpec(
            ReadOptions options, LoadedSource loaded, BroadcastPlan plan, PartitionPlan partitions) {
        try {
            if (loaded.dataset() == null) {
                KeptColumnsChoice.requireNoNames(options.keep(), options.input());
                return Optional.empty();
            }
            Optional<RowLineage> lineage = RowLineage.of(plan, 0, partitions);
            List<KeptColumn> columns =
                    KeptColumnsChoice.columns(options.keep(), loaded.dataset(), options.input(), lineage);
            return columns.isEmpty() ? Optional.empty() : Optional.of(new KeptSpec(columns, lineage.orElseThrow()));
        } catch (BroadcastException e) {
            throw new InvalidRequestException(e.commandLineMessage());
        }
    }

    StructType schema() {
        StructType tensor = SparkTypes.schema(source.dtype(), source.hasNulls(), partitions.rowShape());
        return kept.map(columns ->
                        KeptSparkTypes.withKept(tensor, columns.spec().columns()))
                .orElse(tensor);
    }
}
