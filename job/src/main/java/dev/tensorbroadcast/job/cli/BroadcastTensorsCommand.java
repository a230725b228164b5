package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.InvalidRequestException;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code broadcast-tensors}: broadcasts several inputs against each other (numpy {@code broadcast_arrays}, torch and
 * paddle {@code broadcast_tensors}) and writes input {@code i}'s broadcast into {@code DIR/i}.
 */
@Command(
        name = "broadcast-tensors",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {
            "Broadcasts inputs against each other and writes each one's broadcast as a dataset: DIR/0, DIR/1, ...",
            "All datasets have the same shape. Without --master the tasks run on this process's threads (one per"
                    + " core) without starting Spark (--master 'local[*]' forces Spark)."
        },
        footerHeading = "%nExample:%n",
        footer = {
            "  tensor-broadcast broadcast-tensors --input examples/col3.npy \\",
            "      --input examples/row3.npy --dialect paddle --output /tmp/tb/paddle",
            "Broadcasts a [3,1] column and a [3] row to [3,3] each, into /tmp/tb/paddle/0 and /tmp/tb/paddle/1."
        })
final class BroadcastTensorsCommand implements Callable<Integer> {
    private static final Set<Dialect> DIALECTS = EnumSet.of(Dialect.NUMPY, Dialect.PYTORCH, Dialect.PADDLE);

    @Spec
    CommandSpec spec;

    @Option(
            names = "--input",
            required = true,
            paramLabel = "<file>",
            description = "A source tensor (.npy or Arrow IPC), or a dataset directory; repeat it for every input.")
    List<String> inputs;

    @Option(names = "--dialect", required = true, paramLabel = "<dialect>", description = "numpy, pytorch or paddle.")
    String dialect;

    @Mixin
    DatasetInputOptions dataset;

    @Mixin
    KeepOptions keep;

    @Mixin
    DatasetOutputOptions target;

    @Mixin
    WriteOptions write;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() {
        Dialect parsed = DialectNames.parse(dialect);
        if (!DIALECTS.contains(parsed)) {
            throw new InvalidRequestException("Cannot use dialect " + parsed.dialectName() + " with"
                    + " broadcast-tensors: expected numpy, pytorch or paddle, the dialects that broadcast inputs"
                    + " against each other; use expand for the others");
        }
        SparkRun run = SparkRun.of(spec, target, write, output);
        TensorBroadcast.Builder builder =
                keep.configure(dataset.configure(TensorBroadcast.builder().dialect(parsed)));
        inputs.forEach(builder::source);
        return run.run(builder, true);
    }
}
