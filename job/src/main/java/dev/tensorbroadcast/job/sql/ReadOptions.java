package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.job.ByteSize;
import dev.tensorbroadcast.job.KeepColumns;
import dev.tensorbroadcast.planner.AxisList;
import dev.tensorbroadcast.planner.BroadcastException;
import dev.tensorbroadcast.planner.BroadcastMode;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.TargetShape;
import dev.tensorbroadcast.planner.UserText;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The reader options of a broadcast, named as the command line's flags without {@code --}, each read by the same
 * parser the command line uses so that a bad value is refused in the same line. Option names are case-insensitive,
 * as Spark's are.
 *
 * @param input the source: a {@code .npy} or Arrow IPC file, or a dataset directory; a local path or Hadoop URI
 * @param partitions an exact partition count, or empty for partitions of {@code partitionBytes}
 * @param partitionBytes the target bytes of a partition, or empty for the planner's 128 MiB
 * @param keep which of a dataset input's other columns the table has after {@code tensor}, as {@code expand --keep}
 *     writes them: all by default
 */
record ReadOptions(
        String input,
        Dialect dialect,
        Optional<TargetShape> target,
        Optional<BroadcastMode> mode,
        Optional<List<Long>> axesMapping,
        Optional<List<Long>> broadcastAxes,
        OptionalLong axis,
        Optional<String> column,
        Optional<Shape> rowShape,
        OptionalLong partitions,
        OptionalLong partitionBytes,
        KeepColumns keep) {
    static final String INPUT = "input";
    static final String DIALECT = "dialect";
    static final String SHAPE = "shape";
    static final String MODE = "mode";
    static final String AXES_MAPPING = "axes-mapping";
    static final String BROADCAST_AXES = "broadcast-axes";
    static final String AXIS = "axis";
    static final String COLUMN = "column";
    static final String ROW_SHAPE = "row-shape";
    static final String PARTITIONS = "partitions";
    static final String PARTITION_SIZE = "partition-size";
    static final String KEEP = "keep";
    static final List<String> NAMES = List.of(
            INPUT,
            DIALECT,
            SHAPE,
            MODE,
            AXES_MAPPING,
            BROADCAST_AXES,
            AXIS,
            COLUMN,
            ROW_SHAPE,
            PARTITIONS,
            PARTITION_SIZE,
            KEEP);

    ReadOptions {
        requireNonNull(input, "input is null");
        requireNonNull(dialect, "dialect is null");
        requireNonNull(target, "target is null");
        requireNonNull(mode, "mode is null");
        axesMapping = requireNonNull(axesMapping, "axesMapping is null").map(List::copyOf);
        broadcastAxes = requireNonNull(broadcastAxes, "broadcastAxes is null").map(List::copyOf);
        requireNonNull(axis, "axis is null");
        requireNonNull(column, "column is null");
        requireNonNull(rowShape, "rowShape is null");
        requireNonNull(partitions, "partitions is null");
        requireNonNull(partitionBytes, "partitionBytes is null");
        requireNonNull(keep, "keep is null");
    }

    /** The options as Spark passes them; refused in one line, as the command line refuses its flags. */
    static ReadOptions parse(Map<String, String> given) {
        Map<String, String> options = new TreeMap<>();
        given.forEach((key, value) -> options.put(key.toLowerCase(Locale.ROOT), value));
        for (String key : options.keySet()) {
            if (!NAMES.contains(key)) {
                throw new InvalidRequestException("Cannot read a tensorbroadcast table with option '"
                        + UserText.shown(key) + "': expected " + String.join(", ", NAMES));
            }
        }
        String input = required(options, INPUT, "a .npy or Arrow IPC file or a dataset directory");
        Dialect dialect = Dialect.parse(
                required(options, DIALECT, "numpy, pytorch, paddle, mindspore, onnx," + " openvino or ngraph"));
        if (options.containsKey(AXES_MAPPING) && options.containsKey(BROADCAST_AXES)) {
            // the command line's words for the same pair of flags, without the dashes
            throw new InvalidRequestException("Cannot use " + AXES_MAPPING + " with " + BROADCAST_AXES + ": they are"
                    + " mutually exclusive (openvino explicit mode takes the first, ngraph the second)");
        }
        if (options.containsKey(PARTITION_SIZE) && options.containsKey(PARTITIONS)) {
            throw new InvalidRequestException("Cannot use " + PARTITION_SIZE + " with " + PARTITIONS + ": they are"
                    + " mutually exclusive (give a size per partition or a partition count)");
        }
        return new ReadOptions(
                input,
                dialect,
                Optional.ofNullable(options.get(SHAPE)).map(TargetShape::parse),
                Optional.ofNullable(options.get(MODE)).map(BroadcastMode::parse),
                Optional.ofNullable(options.get(AXES_MAPPING)).map(text -> AxisList.parse("axes mapping", text)),
                Optional.ofNullable(options.get(BROADCAST_AXES)).map(text -> AxisList.parse("broadcast axes", text)),
                integer(options, AXIS),
                Optional.ofNullable(options.get(COLUMN)),
                Optional.ofNullable(options.get(ROW_SHAPE)).map(Shape::parse),
                integer(options, PARTITIONS),
                Optional.ofNullable(options.get(PARTITION_SIZE))
                        .map(text -> OptionalLong.of(ByteSize.parse("partition size", text)))
                        .orElse(OptionalLong.empty()),
                keep(options.getOrDefault(KEEP, "all")));
    }

    /** Parsed as {@code --keep} is, and refused in the command line's words, whose flag the option is. */
    private static KeepColumns keep(String text) {
        try {
            return KeepColumns.parse(text);
        } catch (BroadcastException e) {
            throw new InvalidRequestException(e.commandLineMessage());
        }
    }

    /** A request builder of the dialect with every argument given; the caller adds the input. */
    BroadcastRequest.Builder request() {
        BroadcastRequest.Builder request = BroadcastRequest.builder(dialect);
        target.ifPresent(request::target);
        mode.ifPresent(request::mode);
        axesMapping.ifPresent(request::axesMapping);
        broadcastAxes.ifPresent(request::broadcastAxes);
        axis.ifPresent(request::axis);
        return request;
    }

    private static String required(Map<String, String> options, String name, String expected) {
        String value = options.get(name);
        if (value == null) {
            throw new InvalidRequestException(
                    "Cannot read a tensorbroadcast table without option '" + name + "': give " + expected);
        }
        return value;
    }

    private static OptionalLong integer(Map<String, String> options, String name) {
        String text = options.get(name);
        if (text == null) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(text.strip()));
        } catch (NumberFormatException e) {
            throw new InvalidRequestException(
                    "Cannot parse " + name + " '" + UserText.shown(text) + "': it is not an" + " integer");
        }
    }
}
