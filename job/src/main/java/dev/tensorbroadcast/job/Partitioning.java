package dev.tensorbroadcast.job;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.PartitionPlan;
import java.util.OptionalLong;

/**
 * How a broadcast's or a reduce's work is cut into tasks: a target size per task or an exact count, never both, since
 * neither builder lets the last one set win; neither given, the planner's default size.
 *
 * @param bytes the target bytes per task, if given
 * @param count the exact task count, if given
 */
record Partitioning(OptionalLong bytes, OptionalLong count) {
    Partitioning {
        requireNonNull(bytes, "bytes is null");
        requireNonNull(count, "count is null");
        if (bytes.isPresent() && count.isPresent()) {
            throw new InvalidRequestException("Cannot use a partition size with a partition count: they are"
                    + " mutually exclusive (give a size per partition or a partition count)");
        }
    }

    /** The target bytes per task: the size given, else the planner's default. */
    long bytesOrDefault() {
        return bytes.orElse(PartitionPlan.DEFAULT_PARTITION_BYTES);
    }
}
