package dev.tensorbroadcast.arrowio;

import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Partition;
import dev.tensorbroadcast.planner.Shape;
import java.util.zip.CRC32C;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * The null sink: fills a partition batch by batch through the same {@link TensorBatch} and kernel the file writers
 * use, and discards each batch after reading it once for a CRC-32C of the values (the pass a real writer makes when it
 * copies the batch out). Measures compute apart from the disk; the checksum proves the values were computed.
 */
public final class DiscardingTensorWriter {
    private final long batchBytes;

    private DiscardingTensorWriter(long batchBytes) {
        if (batchBytes <= 0) {
            throw new IllegalArgumentException("Cannot use batch size " + batchBytes + ": it must be at least 1 byte");
        }
        this.batchBytes = batchBytes;
    }

    public static DiscardingTensorWriter create() {
        return new DiscardingTensorWriter(TensorBatch.DEFAULT_BATCH_BYTES);
    }

    /** Batches of about this many bytes of values (at least one row each), as the file writers cut them. */
    public DiscardingTensorWriter withBatchBytes(long bytes) {
        return new DiscardingTensorWriter(bytes);
    }

    /** Fills every batch of {@code partition} and discards it. */
    public DiscardResult write(TensorKernel kernel, Shape rowShape, Partition partition) {
        CRC32C crc = new CRC32C();
        long[] valueBytes = new long[1];
        int batches;
        try (TensorBatch batch = TensorBatch.allocate(kernel, rowShape, partition, batchBytes)) {
            try {
                batches = batch.writeAll((firstRow, rows) ->
                        valueBytes[0] += checksum(batch.values(), kernel.dtype(), rows * partition.rowElements(), crc));
            } catch (java.io.IOException e) {
                throw new IllegalStateException("the null sink does no I/O", e);
            }
        }
        return new DiscardResult(partition.rowCount(), valueBytes[0], batches, crc.getValue());
    }

    /**
     * Adds the value bytes of the first {@code elements} elements to {@code crc} and returns their count: the data
     * buffer of fixed-width values (bits for bool), offsets and data for strings; validity is not included.
     */
    static long checksum(FieldVector values, DType dtype, long elements, CRC32C crc) {
        if (values instanceof VarCharVector strings) {
            ArrowBuf offsets = strings.getOffsetBuffer();
            long offsetBytes = (elements + 1) * Integer.BYTES;
            long dataBytes = elements == 0 ? 0 : offsets.getInt(elements * Integer.BYTES);
            update(crc, offsets, offsetBytes);
            update(crc, strings.getDataBuffer(), dataBytes);
            return offsetBytes + dataBytes;
        }
        long storage = elements * ArrowDTypes.valuesPerElement(dtype);
        long bytes = dtype == DType.BOOL ? (storage + 7) / 8 : storage * ArrowDTypes.storageByteWidth(dtype);
        update(crc, values.getDataBuffer(), bytes);
        return bytes;
    }

    private static void update(CRC32C crc, ArrowBuf buffer, long bytes) {
        for (long done = 0; done < bytes; done += Integer.MAX_VALUE) {
            crc.update(buffer.nioBuffer(done, (int) Math.min(Integer.MAX_VALUE, bytes - done)));
        }
    }
}
