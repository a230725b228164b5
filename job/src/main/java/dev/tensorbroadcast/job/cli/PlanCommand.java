package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.arrowio.format.SourceLimits;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowSourceOptions;
import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.job.KeptColumnsChoice;
import dev.tensorbroadcast.job.source.LoadedSource;
import dev.tensorbroadcast.job.source.RowGroupCuts;
import dev.tensorbroadcast.job.source.SourceLoader;
import dev.tensorbroadcast.planner.BroadcastPlan;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.RowLineage;
import dev.tensorbroadcast.planner.Shape;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code plan}: applies a dialect's rule to shapes and prints the output, its rows and partitions and the copy
 * program. It reads no data and starts no Spark, so it answers at once for any size.
 *
 * <p>Values are kept as text and parsed here, so a bad value is reported by the planner's own message.
 */
@Command(
        name = "plan",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {
            "Plans a broadcast: the output shape, its rows and partitions, and the copy program.",
            "Reads no data and starts no Spark. Shapes are written [2,3], 2,3 or 2x3; [] is a scalar."
        },
        footerHeading = "%nExample:%n",
        footer = {
            "  tensor-broadcast plan --dialect numpy --input-shape [1,4096] --shape 65536,4096",
            "  tensor-broadcast plan --dialect pytorch --input examples/row4096.npy \\",
            "      --shape -1,4096 --partitions 4",
            "The first plans numpy's rule for a [1,4096] row repeated 65536 times; the second reads the shape and"
                    + " dtype from the file."
        })
final class PlanCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    RequestOptions arguments;

    @Option(
            names = "--input-shape",
            paramLabel = "<shape>",
            description = "An input's shape; repeat it for several inputs (numpy, pytorch, paddle without --shape).")
    List<String> inputShapes;

    @Option(
            names = "--input",
            paramLabel = "<file|dir>",
            description = "An input file (.npy or Arrow IPC, any Hadoop path), or a dataset directory, whose shape and"
                    + " dtype to plan with, instead of --input-shape and --dtype; repeat it for several inputs.")
    List<String> inputFiles;

    @Mixin
    DatasetInputOptions dataset;

    @Mixin
    KeepOptions keep;

    /** The first input when it is a dataset directory, whose strategy the plan shows. */
    private TensorDataset firstDataset;

    @Option(
            names = "--dtype",
            paramLabel = "<dtype>",
            defaultValue = "float32",
            description = "The element type of every input (default: ${DEFAULT-VALUE}).")
    String dtype;

    @Mixin
    PartitionOptions partitioning;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() {
        partitioning.check(spec);
        arguments.check(spec);
        BroadcastPlan plan = request().plan();
        PartitionPlan.Builder partitions = PartitionPlan.builderFor(plan);
        partitioning.bytes().ifPresent(partitions::partitionBytes);
        partitioning.count().ifPresent(partitions::partitions);
        PartitionPlan uniform = partitions.build();
        // as expand cuts a dataset read in slices: at its row groups
        Optional<RowLineage> lineage = RowLineage.of(plan, 0, uniform);
        PartitionPlan partitionPlan = firstDataset != null
                        && firstDataset.valueBytes() > dataset.shipThreshold()
                        && partitioning.count().isEmpty()
                        && lineage.isPresent()
                ? RowGroupCuts.align(
                        uniform,
                        firstDataset,
                        lineage.get(),
                        partitioning.bytes().orElse(PartitionPlan.DEFAULT_PARTITION_BYTES))
                : uniform;
        Optional<SourceStrategy> source = Optional.ofNullable(firstDataset)
                .map(found -> SourceStrategy.of(found, plan, partitionPlan, dataset.shipThreshold()));
        // the columns expand would keep, refused as expand would refuse them
        List<KeptColumn> kept = firstDataset == null
                ? List.of()
                : KeptColumnsChoice.columns(keep.columns(), firstDataset, inputFiles.get(0), lineage);
        PlanSummary summary = new PlanSummary(plan, partitionPlan, source, kept);
        output.emit(spec.commandLine().getOut(), summary::toJson, summary::printText);
        return ExitCode.OK;
    }

    private BroadcastRequest request() {
        BroadcastRequest.Builder request = BroadcastRequest.builder(arguments.dialect());
        if ((inputShapes == null) == (inputFiles == null)) {
            throw new ParameterException(
                    spec.commandLine(),
                    inputShapes == null
                            ? "Missing input: give --input-shape (a shape) or --input (a .npy or Arrow IPC file)"
                            : "Cannot use --input-shape with --input: give the shapes, or the files to read them from");
        }
        if (inputFiles != null) {
            ExclusiveOptions.refuseIfGiven(
                    spec, "--dtype", "with --input", "the dtype is each file's own; drop" + " --dtype");
        } else {
            // they say how to read an input file, so with shapes alone they would be dropped
            for (String option : new String[] {
                TensorColumnOptions.COLUMN,
                TensorColumnOptions.ROW_SHAPE,
                DatasetInputOptions.SHIP_THRESHOLD,
                KeepOptions.KEEP
            }) {
                ExclusiveOptions.refuseIfGiven(
                        spec,
                        option,
                        "with --input-shape",
                        "it applies to an input file or" + " dataset; give --input, or drop " + option);
            }
        }
        if (inputFiles != null) {
            // the whole source is read, as expand will read it, so a file plan would refuse is refused here too
            SourceLoader loader = new SourceLoader(
                    new Configuration(),
                    SourceLimits.defaults(),
                    dataset.column()
                            .map(ArrowSourceOptions.defaults()::withColumn)
                            .orElse(ArrowSourceOptions.defaults()),
                    dataset.rowShape());
            for (String file : inputFiles) {
                LoadedSource source = loader.load(file);
                @SuppressWarnings("ReferenceEquality") // the list's first element, not a later file of the same name
                boolean first = file == inputFiles.get(0);
                if (first) {
                    firstDataset = source.dataset();
                }
                request.input(source.shape(), source.dtype());
            }
        } else {
            DType type = DType.parse(dtype);
            for (String input : inputShapes) {
                request.input(Shape.parse(input), type);
            }
        }
        arguments.target().ifPresent(request::target);
        arguments.mode().ifPresent(request::mode);
        arguments.axesMapping().ifPresent(request::axesMapping);
        arguments.broadcastAxes().ifPresent(request::broadcastAxes);
        arguments.axis().ifPresent(request::axis);
        return request.build();
    }
}
