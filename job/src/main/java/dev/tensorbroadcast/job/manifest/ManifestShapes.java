package dev.tensorbroadcast.job.manifest;

import dev.tensorbroadcast.planner.Shape;
import java.util.ArrayList;
import java.util.List;

/** Shapes as the manifest writes them, lists of dims, to and from the planner's {@link Shape}. */
public final class ManifestShapes {
    private ManifestShapes() {}

    /** The shape of {@code dims}; a negative dim or too high a rank is refused as {@link Shape#of} refuses it. */
    public static Shape shape(List<Long> dims) {
        long[] values = new long[dims.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = dims.get(i);
        }
        return Shape.of(values);
    }

    public static List<Long> list(Shape shape) {
        long[] dims = shape.dims();
        List<Long> list = new ArrayList<>(dims.length);
        for (long dim : dims) {
            list.add(dim);
        }
        return List.copyOf(list);
    }
}
