package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.PartitionPlan;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Makes each executor's reader of a partition: columnar only, since the kernel fills whole batches of rows at once.
 *
 * @param batchBytes about how many bytes of values one batch holds: a task's memory, whatever its partition's size
 */
record BatchReaders(Broadcast<SourceTensor> source, CopyProgram program, PartitionPlan partitions, long batchBytes)
        implements PartitionReaderFactory {
    /** Small enough for many tasks per executor, large enough that a batch's fixed costs do not show. */
    static final long BATCH_BYTES = 16L << 20;

    BatchReaders {
        requireNonNull(source, "source is null");
        requireNonNull(program, "program is null");
        requireNonNull(partitions, "partitions is null");
    }

    @Override
    public boolean supportColumnarReads(InputPartition partition) {
        return true;
    }

    @Override
    public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
        int index = ((BroadcastScan.BroadcastPartition) partition).index();
        return new BatchReader(source.value(), program, partitions.rowShape(), partitions.partition(index), batchBytes);
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        throw new UnsupportedOperationException(
                "Cannot read a tensorbroadcast partition row by row: it is read in" + " columnar batches");
    }
}
