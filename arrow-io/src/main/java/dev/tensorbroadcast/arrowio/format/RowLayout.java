package dev.tensorbroadcast.arrowio.format;

import java.util.Locale;
import java.util.Optional;

/**
 * How a Parquet file lays out a tensor row. {@link #FLAT}: one list of all the row's values, with the row shape in the
 * Arrow schema (pyarrow restores an {@code arrow.fixed_shape_tensor}; Spark, DuckDB and polars see a flat list).
 * {@link #NESTED}: one list level per dimension of the row, so that a [4,3] row is a list of 4 lists of 3 values,
 * which Spark reads as {@code array<array<float>>}, DuckDB as {@code FLOAT[][]} and polars as an
 * {@code Array(Float32, shape=(4, 3))}. Rows of fewer than two stored dimensions, and rows without values (a dimension
 * of 0), are the same either way: one list.
 */
public enum RowLayout {
    FLAT,
    NESTED;

    /** The name the CLI and the manifest use: {@code flat} or {@code nested}. */
    public String layoutName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The layout called {@code name}, or empty. */
    public static Optional<RowLayout> named(String name) {
        for (RowLayout layout : values()) {
            if (layout.layoutName().equals(name)) {
                return Optional.of(layout);
            }
        }
        return Optional.empty();
    }
}
