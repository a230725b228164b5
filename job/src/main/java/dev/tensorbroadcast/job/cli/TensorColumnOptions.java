package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.planner.Shape;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * Where the tensor is in an input with columns, and the shape of its rows: every subcommand that reads an input takes
 * these. {@code verify} reads its source whole, so it takes these and not the ship threshold.
 */
final class TensorColumnOptions {
    static final String COLUMN = "--column";
    static final String ROW_SHAPE = "--row-shape";

    @Option(
            names = COLUMN,
            paramLabel = "<name>",
            description = "The column that holds the tensor, in an Arrow IPC input or a dataset directory of Arrow"
                    + " IPC or Parquet files, when it has several.")
    String column;

    @Option(
            names = ROW_SHAPE,
            paramLabel = "<shape>",
            description = "The shape of one row of a dataset input whose column is a list of numbers, such as [1,64];"
                    + " every row must have that many values.")
    String rowShape;

    Optional<Shape> rowShape() {
        return Optional.ofNullable(rowShape).map(Shape::parse);
    }

    Optional<String> column() {
        return Optional.ofNullable(column);
    }
}
