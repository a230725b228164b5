package dev.tensorbroadcast.arrowio.format.arrow;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.Shape;
import java.util.Optional;

/**
 * What to read from an Arrow IPC source.
 *
 * @param column the column holding the tensor ({@code --column}); when empty, the only column (besides
 *     {@code index}) or the column named {@code tensor}
 * @param shape a shape to give the tensor ({@code --shape}); it must have as many elements as the column
 */
public record ArrowSourceOptions(Optional<String> column, Optional<Shape> shape) {
    public ArrowSourceOptions {
        requireNonNull(column, "column is null");
        requireNonNull(shape, "shape is null");
    }

    public static ArrowSourceOptions defaults() {
        return new ArrowSourceOptions(Optional.empty(), Optional.empty());
    }

    public ArrowSourceOptions withColumn(String name) {
        return new ArrowSourceOptions(Optional.of(requireNonNull(name, "name is null")), shape);
    }

    public ArrowSourceOptions withShape(Shape newShape) {
        return new ArrowSourceOptions(column, Optional.of(requireNonNull(newShape, "newShape is null")));
    }
}
