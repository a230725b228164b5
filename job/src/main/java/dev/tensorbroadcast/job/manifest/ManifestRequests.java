package dev.tensorbroadcast.job.manifest;

import dev.tensorbroadcast.planner.BroadcastMode;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.TargetShape;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/**
 * The manifest's {@code request} map, shared by the job that writes it and the commands that re-plan from it. Keys
 * are {@link #DIALECT}, {@link #SHAPE}, {@link #MODE}, {@link #AXES_MAPPING}, {@link #BROADCAST_AXES} and
 * {@link #AXIS}, in the notation they are typed in and absent when not given; {@link #INPUT} names which input a
 * dataset materializes when the request has several (absent means 0).
 */
public final class ManifestRequests {
    public static final String DIALECT = "dialect";
    public static final String SHAPE = "shape";
    public static final String MODE = "mode";
    public static final String AXES_MAPPING = "axes_mapping";
    public static final String BROADCAST_AXES = "broadcast_axes";
    public static final String AXIS = "axis";
    public static final String INPUT = "input";
    /** {@code reduce} for the result of {@code reduce}, whose inputs are the gradient; absent for a broadcast. */
    public static final String OPERATION = "operation";

    public static final String REDUCE = "reduce";
    /**
     * The {@code --partition-by} keys, comma-separated, when the files lie under {@code key=value/} directories
     * (each file's {@code path} says which); absent when every file is at the top.
     */
    public static final String PARTITION_BY = "partition_by";

    private ManifestRequests() {}

    /**
     * The request map for {@code request}, the inverse of {@link #toRequest}: its dialect, then each argument it was
     * given, in the notation they are typed in ({@code [4,3]} for shapes and axes), then {@code input} when a
     * dataset materializes one input of several. Keys keep that order.
     */
    public static Map<String, String> of(BroadcastRequest request, OptionalInt input) {
        Map<String, String> map = new LinkedHashMap<>();
        map.put(DIALECT, request.dialect().dialectName());
        request.target().ifPresent(shape -> map.put(SHAPE, shape.toList()));
        request.mode().ifPresent(mode -> map.put(MODE, mode.modeName()));
        request.axesMapping().ifPresent(axes -> map.put(AXES_MAPPING, list(axes)));
        request.broadcastAxes().ifPresent(axes -> map.put(BROADCAST_AXES, list(axes)));
        request.axis().ifPresent(axis -> map.put(AXIS, Long.toString(axis)));
        input.ifPresent(index -> map.put(INPUT, Integer.toString(index)));
        return Collections.unmodifiableMap(map);
    }

    /** Rebuilds the request the manifest describes: its dialect and arguments, with the inputs' shapes and dtypes. */
    public static BroadcastRequest toRequest(Manifest manifest) {
        Map<String, String> request = manifest.request();
        String dialect = request.get(DIALECT);
        if (dialect == null) {
            throw new ManifestException("Cannot rebuild the request from the manifest: it has no '" + DIALECT
                    + "' key; it has " + request.keySet());
        }
        BroadcastRequest.Builder builder = BroadcastRequest.builder(Dialect.parse(dialect));
        for (Manifest.ManifestInput input : manifest.inputs()) {
            builder.input(ManifestShapes.shape(input.shape()), DType.parse(input.dtype()));
        }
        if (request.containsKey(SHAPE)) {
            builder.target(TargetShape.parse(request.get(SHAPE)));
        }
        if (request.containsKey(MODE)) {
            builder.mode(BroadcastMode.parse(request.get(MODE)));
        }
        if (request.containsKey(AXES_MAPPING)) {
            builder.axesMapping(axes(AXES_MAPPING, request.get(AXES_MAPPING)));
        }
        if (request.containsKey(BROADCAST_AXES)) {
            builder.broadcastAxes(axes(BROADCAST_AXES, request.get(BROADCAST_AXES)));
        }
        if (request.containsKey(AXIS)) {
            builder.axis(number(AXIS, request.get(AXIS)));
        }
        return builder.build();
    }

    /** Which input of the request this dataset materializes. */
    public static int inputIndex(Manifest manifest) {
        String text = manifest.request().get(INPUT);
        long index = text == null ? 0 : number(INPUT, text);
        if (index < 0 || index >= manifest.inputs().size()) {
            throw new ManifestException("Cannot use manifest request key '" + INPUT + "' = " + text + ": the manifest"
                    + " lists " + manifest.inputs().size() + " inputs");
        }
        return (int) index;
    }

    private static List<Long> axes(String key, String text) {
        String body = text.strip();
        if (body.startsWith("[") && body.endsWith("]")) {
            body = body.substring(1, body.length() - 1).strip();
        }
        List<Long> axes = new ArrayList<>();
        if (!body.isEmpty()) {
            for (String part : body.split(",", -1)) {
                axes.add(number(key, part));
            }
        }
        return axes;
    }

    private static long number(String key, String text) {
        try {
            return Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            throw new ManifestException(
                    "Cannot read manifest request key '" + key + "': '" + text + "' is not an integer");
        }
    }

    private static String list(List<Long> values) {
        return values.stream().map(String::valueOf).collect(Collectors.joining(",", "[", "]"));
    }
}
