package dev.tensorbroadcast.job.pipeline;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What {@code --format null} computed: the output's shape and dtype, its rows and value bytes, and every partition in
 * order with the checksum of its values. Nothing was written.
 */
public record DiscardedDataset(List<Long> shape, String dtype, long rows, long bytes,
        List<DiscardedPartition> partitions) {
    public DiscardedDataset {
        shape = List.copyOf(shape);
        requireNonNull(dtype, "dtype is null");
        partitions = List.copyOf(partitions);
    }

    /** The value bytes the partitions report having filled: {@link #bytes} when every task did its work. */
    public long filledBytes() {
        return partitions.stream().mapToLong(DiscardedPartition::valueBytes).sum();
    }
}
