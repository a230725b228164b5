package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.planner.AxisList;
import dev.tensorbroadcast.planner.BroadcastMode;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.TargetShape;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The dialect and its arguments, shared by {@code plan} and {@code expand}. Values stay text until read, so a bad
 * value is reported in the planner's own words.
 */
final class RequestOptions {
    @Option(
            names = "--dialect",
            required = true,
            paramLabel = "<dialect>",
            description = "numpy, pytorch, paddle, mindspore, onnx, openvino or ngraph.")
    String dialect;

    @Option(
            names = "--shape",
            paramLabel = "<shape>",
            description = "The target shape, such as [1000,4096], 1000,4096 or 1000x4096; -1 where the dialect allows"
                    + " it.")
    String shape;

    @Option(
            names = "--mode",
            paramLabel = "<mode>",
            description = "openvino only: numpy (default), explicit, bidirectional or pdpd.")
    String mode;

    @Option(
            names = "--axes-mapping",
            paramLabel = "<axes>",
            description = "openvino explicit mode: the output axis of each input axis, such as [0,2].")
    String axesMapping;

    @Option(
            names = "--broadcast-axes",
            paramLabel = "<axes>",
            description = "ngraph: the output axes that are new, such as [0]; [] if none.")
    String broadcastAxes;

    @Option(
            names = "--axis",
            paramLabel = "<axis>",
            description = "openvino pdpd mode: the output axis the input starts at; -1 (default) aligns it right.")
    Long axis;

    void check(CommandSpec spec) {
        ExclusiveOptions.requireAtMostOne(
                spec,
                "--axes-mapping",
                axesMapping,
                "--broadcast-axes",
                broadcastAxes,
                "openvino explicit mode takes the first, ngraph the second");
    }

    Dialect dialect() {
        return DialectNames.parse(dialect);
    }

    Optional<TargetShape> target() {
        return Optional.ofNullable(shape).map(TargetShape::parse);
    }

    Optional<BroadcastMode> mode() {
        return Optional.ofNullable(mode).map(BroadcastMode::parse);
    }

    Optional<List<Long>> axesMapping() {
        return Optional.ofNullable(axesMapping).map(text -> AxisList.parse("axes mapping", text));
    }

    Optional<List<Long>> broadcastAxes() {
        return Optional.ofNullable(broadcastAxes).map(text -> AxisList.parse("broadcast axes", text));
    }

    OptionalLong axis() {
        return axis == null ? OptionalLong.empty() : OptionalLong.of(axis);
    }
}
