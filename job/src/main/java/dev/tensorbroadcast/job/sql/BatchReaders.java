package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.kept.KeptRows;
import dev.tensorbroadcast.job.source.KeptSpec;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.Partition;
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
 * @param kept the columns a dataset input keeps after {@code tensor}, or null for none
 * @param keptRows all source rows of {@code kept}'s columns, as {@link BroadcastKept#rows}; null when {@code kept} is
 */
record BatchReaders(
        Broadcast<SourceTensor> source,
        CopyProgram program,
        PartitionPlan partitions,
        long batchBytes,
        KeptSpec kept,
        Broadcast<byte[]> keptRows)
        implements PartitionReaderFactory {
    /** Small enough for many tasks per executor, large enough that a batch's fixed costs do not show. */
    static final long BATCH_BYTES = 16L << 20;

    BatchReaders {
        requireNonNull(source, "source is null");
        requireNonNull(program, "program is null");
        requireNonNull(partitions, "partitions is null");
        if ((kept == null) != (keptRows == null)) {
            throw new IllegalArgumentException("kept columns come with their rows");
        }
    }

    /** A broadcast that keeps no columns. */
    BatchReaders(Broadcast<SourceTensor> source, CopyProgram program, PartitionPlan partitions, long batchBytes) {
        this(source, program, partitions, batchBytes, null, null);
    }

    @Override
    public boolean supportColumnarReads(InputPartition partition) {
        return true;
    }

    @Override
    public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
        int index = ((BroadcastScan.BroadcastPartition) partition).index();
        Partition rows = partitions.partition(index);
        BatchReader tensor = new BatchReader(source.value(), program, partitions.rowShape(), rows, batchBytes);
        if (kept == null) {
            return tensor;
        }
        // the source rows this partition's rows come from, out of the shipped ones
        try {
            KeptRows keptSource = KeptRows.fromIpc(
                    kept.columns(), kept.lineage().sourceRows(rows.firstRow(), rows.endRow()), keptRows.value());
            return new KeptBatchReader(tensor, new KeptBatches(keptSource, kept.lineage(), rows.firstRow()));
        } catch (RuntimeException | Error e) {
            tensor.close();
            throw e;
        }
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        throw new UnsupportedOperationException(
                "Cannot read a tensorbroadcast partition row by row: it is read in" + " columnar batches");
    }
}
