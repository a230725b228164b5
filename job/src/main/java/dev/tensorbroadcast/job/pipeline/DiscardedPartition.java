package dev.tensorbroadcast.job.pipeline;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;

/**
 * One partition the null sink filled and discarded: its rows, the bytes of values filled, the batches, the CRC-32C
 * of those bytes (8 lowercase hex digits) and the executor that computed it.
 */
public record DiscardedPartition(long partition, long firstRow, long rows, long valueBytes, int batches,
        String crc32c, String executorId) implements Serializable {
    public DiscardedPartition {
        requireNonNull(crc32c, "crc32c is null");
        requireNonNull(executorId, "executorId is null");
    }
}
