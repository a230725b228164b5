package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.planner.BroadcastMode;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.TargetShape;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code expand}: broadcasts one source tensor with a dialect's rule and writes the result as a dataset. */
@Command(name = "expand",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {
            "Broadcasts a .npy or Arrow IPC tensor to a shape and writes it with Spark: one file per partition,",
            "_manifest.json and _SUCCESS. Runs on an embedded local Spark unless --master is given."
        })
final class ExpandCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--input", required = true, paramLabel = "<file>",
            description = "The source tensor: .npy or Arrow IPC (file or stream), a local path or a Hadoop URI.")
    String input;

    @Option(names = "--dialect", required = true, paramLabel = "<dialect>",
            description = "numpy, pytorch, paddle, mindspore, onnx, openvino or ngraph.")
    String dialect;

    @Option(names = "--shape", paramLabel = "<shape>",
            description = "The target shape, such as [1000,4096]; -1 where the dialect allows it.")
    String shape;

    @Option(names = "--mode", paramLabel = "<mode>",
            description = "openvino only: numpy (default), explicit, bidirectional or pdpd.")
    String mode;

    @Option(names = "--axes-mapping", paramLabel = "<axes>",
            description = "openvino explicit mode: the output axis of each input axis, such as [0,2].")
    String axesMapping;

    @Option(names = "--broadcast-axes", paramLabel = "<axes>",
            description = "ngraph: the output axes that are new, such as [0]; [] if none.")
    String broadcastAxes;

    @Option(names = "--axis", paramLabel = "<axis>",
            description = "openvino pdpd mode: the output axis the input starts at; -1 (default) aligns it right.")
    Long axis;

    @Mixin
    WriteOptions write;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() {
        if (write.partitionSize != null && write.partitions != null) {
            throw new ParameterException(spec.commandLine(), "Cannot use --partition-size with --partitions: they"
                    + " are mutually exclusive (give a size per partition or a partition count)");
        }
        if (axesMapping != null && broadcastAxes != null) {
            throw new ParameterException(spec.commandLine(), "Cannot use --axes-mapping with --broadcast-axes: they"
                    + " are mutually exclusive (openvino explicit mode takes the first, ngraph the second)");
        }
        SparkRun run = SparkCommands.run(spec, write, output);
        TensorBroadcast.Builder builder = TensorBroadcast.builder().source(input).dialect(Dialect.parse(dialect));
        if (shape != null) {
            builder.shape(TargetShape.parse(shape));
        }
        if (mode != null) {
            builder.mode(BroadcastMode.parse(mode));
        }
        if (axesMapping != null) {
            builder.axesMapping(AxisList.parse("axes mapping", axesMapping));
        }
        if (broadcastAxes != null) {
            builder.broadcastAxes(AxisList.parse("broadcast axes", broadcastAxes));
        }
        if (axis != null) {
            builder.axis(axis);
        }
        return run.run(run.configure(builder).build(), false);
    }
}
