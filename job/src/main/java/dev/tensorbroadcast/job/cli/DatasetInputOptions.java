package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.planner.Shape;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * How an input is read: its column, and for a directory (a dataset of Arrow IPC or Parquet files) its row shape and
 * whether it is shipped. Shared by every subcommand that reads inputs, so each takes the same options.
 */
final class DatasetInputOptions {
    @Option(names = "--column", paramLabel = "<name>",
            description = "The column that holds the tensor, in an Arrow IPC input or a dataset directory of Arrow"
                    + " IPC or Parquet files, when it has several.")
    String column;

    @Option(names = "--row-shape", paramLabel = "<shape>",
            description = "The shape of one row of a dataset input whose column is a list of numbers, such as [1,64];"
                    + " every row must have that many values.")
    String rowShape;

    @Option(names = "--ship-threshold", paramLabel = "<size>",
            description = "A dataset input of at most this many bytes of values is shipped whole to every executor;"
                    + " a larger one is read by the tasks, each only its slice (default 64m).")
    String shipThreshold;

    Optional<Shape> rowShape() {
        return Optional.ofNullable(rowShape).map(Shape::parse);
    }

    long shipThreshold() {
        return shipThreshold == null ? TensorBroadcast.DEFAULT_SHIP_THRESHOLD
                : ByteSize.parse("ship threshold", shipThreshold);
    }

    Optional<String> column() {
        return Optional.ofNullable(column);
    }

    TensorBroadcast.Builder configure(TensorBroadcast.Builder builder) {
        column().ifPresent(builder::column);
        rowShape().ifPresent(builder::rowShape);
        return builder.shipThreshold(shipThreshold());
    }
}
