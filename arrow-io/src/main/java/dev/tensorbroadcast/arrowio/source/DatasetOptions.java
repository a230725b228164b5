package dev.tensorbroadcast.arrowio.source;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.Shape;
import java.util.Optional;

/**
 * What to read from a dataset directory.
 *
 * @param column the column holding the rows ({@code --column}); when empty, the only column besides {@code index}, or
 *     the column named {@code tensor}
 * @param rowShape the shape of one row ({@code --row-shape}): needed for list columns, whose length Arrow and Parquet
 *     do not fix; for a tensor column it reshapes each row and must have as many elements
 */
public record DatasetOptions(Optional<String> column, Optional<Shape> rowShape) {
    public DatasetOptions {
        requireNonNull(column, "column is null");
        requireNonNull(rowShape, "rowShape is null");
    }

    public static DatasetOptions defaults() {
        return new DatasetOptions(Optional.empty(), Optional.empty());
    }

    public DatasetOptions withColumn(String name) {
        return new DatasetOptions(Optional.of(requireNonNull(name, "name is null")), rowShape);
    }

    public DatasetOptions withRowShape(Shape shape) {
        return new DatasetOptions(column, Optional.of(requireNonNull(shape, "shape is null")));
    }
}
