package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.job.ByteSize;
import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.planner.Shape;
import java.util.Optional;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * How an input is read: its column, and for a directory (a dataset of Arrow IPC or Parquet files) its row shape and
 * whether it is shipped. Shared by every subcommand that reads inputs with Spark, or plans such a read.
 */
final class DatasetInputOptions {
    static final String SHIP_THRESHOLD = "--ship-threshold";

    @Mixin
    TensorColumnOptions tensor;

    @Option(
            names = SHIP_THRESHOLD,
            paramLabel = "<size>",
            description = "A dataset input of at most this many bytes of values is shipped whole to every executor;"
                    + " a larger one is read by the tasks, each only its slice (default 64m).")
    String shipThreshold;

    Optional<Shape> rowShape() {
        return tensor.rowShape();
    }

    long shipThreshold() {
        return shipThreshold == null
                ? TensorBroadcast.DEFAULT_SHIP_THRESHOLD
                : ByteSize.parse("ship threshold", shipThreshold);
    }

    Optional<String> column() {
        return tensor.column();
    }

    TensorBroadcast.Builder configure(TensorBroadcast.Builder builder) {
        column().ifPresent(builder::column);
        rowShape().ifPresent(builder::rowShape);
        return builder.shipThreshold(shipThreshold());
    }
}
