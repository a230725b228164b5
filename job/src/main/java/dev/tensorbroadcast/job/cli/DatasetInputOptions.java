package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.planner.Shape;
import java.util.Optional;
import picocli.CommandLine.Option;

/** How a directory input (a dataset of Arrow IPC or Parquet files) is read: shared by {@code plan} and {@code expand}. */
final class DatasetInputOptions {
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

    TensorBroadcast.Builder configure(TensorBroadcast.Builder builder) {
        rowShape().ifPresent(builder::rowShape);
        return builder.shipThreshold(shipThreshold());
    }
}
