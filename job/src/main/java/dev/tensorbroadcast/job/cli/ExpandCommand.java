package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.job.TensorBroadcast;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code expand}: broadcasts one source tensor with a dialect's rule and writes the result as a dataset. */
@Command(
        name = "expand",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {
            "Broadcasts a tensor (.npy, Arrow IPC or a dataset) to a shape and writes it with Spark.",
            "Writes one file per partition, _manifest.json and _SUCCESS. Without --master the tasks run on this"
                    + " process's threads (one per core) without starting Spark, writing the same files as an embedded"
                    + " local Spark would (--master 'local[*]' forces Spark)."
        },
        footerHeading = "%nExample:%n",
        footer = {
            "  tensor-broadcast expand --input examples/row4096.npy --dialect numpy \\",
            "      --shape 1000,4096 --output /tmp/tb/numpy",
            "Writes the [1,4096] row 1000 times as an Arrow IPC dataset in /tmp/tb/numpy."
        })
final class ExpandCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(
            names = "--input",
            required = true,
            paramLabel = "<file|dir>",
            description = "The source tensor: .npy or Arrow IPC (file or stream), or a directory of Arrow IPC or"
                    + " Parquet files with one row of the tensor per table row; a local path or a Hadoop URI.")
    String input;

    @Mixin
    RequestOptions arguments;

    @Mixin
    DatasetInputOptions dataset;

    @Mixin
    KeepOptions keep;

    @Option(
            names = "--partition-by",
            paramLabel = "<keys>",
            split = ",",
            description = "Writes the files in Spark's partitionBy layout, under key=value/ directories of these"
                    + " partition keys of a Hive-partitioned input (such as day or day,hour), so each day's"
                    + " output lies beside the day; the keys move from the files into the paths.")
    List<String> partitionBy = List.of();

    @Mixin
    DatasetOutputOptions target;

    @Mixin
    WriteOptions write;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() {
        arguments.check(spec);
        SparkRun run = SparkRun.of(spec, target, write, output);
        TensorBroadcast.Builder builder = keep.configure(
                dataset.configure(TensorBroadcast.builder().source(input).dialect(arguments.dialect())));
        if (!partitionBy.isEmpty()) {
            builder.partitionBy(partitionBy.toArray(String[]::new));
        }
        arguments.target().ifPresent(builder::shape);
        arguments.mode().ifPresent(builder::mode);
        arguments.axesMapping().ifPresent(builder::axesMapping);
        arguments.broadcastAxes().ifPresent(builder::broadcastAxes);
        arguments.axis().ifPresent(builder::axis);
        return run.run(builder, false);
    }
}
