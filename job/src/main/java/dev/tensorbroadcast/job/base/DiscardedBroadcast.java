package dev.tensorbroadcast.job.base;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.util.List;

/**
 * What a broadcast computed and discarded (the null sink: the Java API's {@code TensorBroadcast.discard},
 * {@code --format null}): the output's shape and dtype, its rows and value bytes, and every partition in order with
 * the checksum of its values. Nothing was written. One type for the API and the pipeline, whose tasks report the
 * partitions: it lives here, below the pipeline, which may not import the API's package.
 *
 * @param shape the output shape
 * @param dtype the element type's name
 * @param bytes the bytes of values planned
 */
public record DiscardedBroadcast(List<Long> shape, String dtype, long rows, long bytes, List<Partition> partitions) {
    /** Copies the lists; refuses a null dtype. */
    public DiscardedBroadcast {
        shape = List.copyOf(shape);
        requireNonNull(dtype, "dtype is null");
        partitions = List.copyOf(partitions);
    }

    /** The value bytes the partitions report having filled: {@link #bytes} when every task did its work. */
    public long filledBytes() {
        return partitions.stream().mapToLong(Partition::valueBytes).sum();
    }

    /**
     * One partition as its task computed it (and sent it to the driver: serializable).
     *
     * @param crc32c the CRC-32C of its values, in hex
     * @param executorId the executor that ran its task
     */
    public record Partition(
            long partition, long firstRow, long rows, long valueBytes, int batches, String crc32c, String executorId)
            implements Serializable {
        /** Refuses a null checksum or executor. */
        public Partition {
            requireNonNull(crc32c, "crc32c is null");
            requireNonNull(executorId, "executorId is null");
        }
    }
}
