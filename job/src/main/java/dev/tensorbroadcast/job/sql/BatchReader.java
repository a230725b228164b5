package dev.tensorbroadcast.job.sql;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.TensorBatch;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.Partition;
import dev.tensorbroadcast.planner.Shape;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Reads one partition in batches: the copy kernel fills the Arrow vectors of the next rows, and Spark reads them in
 * place. The vectors are allocated once for the largest batch and refilled, as Spark's own columnar readers do, so a
 * task holds one batch whatever the partition's size.
 */
final class BatchReader implements PartitionReader<ColumnarBatch> {
    private final TensorBatch batch;
    private final Partition partition;
    private final ColumnarBatch columns;
    private long next;

    BatchReader(SourceTensor source, CopyProgram program, Shape rowShape, Partition partition, long batchBytes) {
        this(TensorKernel.of(source, program), rowShape, partition, batchBytes);
    }

    /** Reads the partition's rows as {@code kernel} fills them (from a slice of the source, say). */
    BatchReader(TensorKernel kernel, Shape rowShape, Partition partition, long batchBytes) {
        SourceTensor source = kernel.source();
        this.batch = TensorBatch.allocate(kernel, rowShape, partition, batchBytes);
        this.partition = partition;
        this.next = partition.firstRow();
        ColumnVector index = new BorrowedArrowVector(batch.index());
        ColumnVector tensor = new TensorColumn(
                DataTypes.createArrayType(SparkTypes.elementType(source.dtype()), source.hasNulls()),
                ElementColumns.of(source.dtype(), batch.values(), source.hasNulls()),
                Math.toIntExact(partition.rowElements()));
        this.columns = new ColumnarBatch(new ColumnVector[] {index, tensor});
    }

    @Override
    public boolean next() {
        if (next >= partition.endRow()) {
            return false;
        }
        int rows = (int) Math.min(batch.rowsPerBatch(), partition.endRow() - next);
        batch.fill(next, rows);
        columns.setNumRows(rows);
        next += rows;
        return true;
    }

    @Override
    public ColumnarBatch get() {
        return columns;
    }

    @Override
    public void close() {
        // the vectors are the batch's: it keeps them for this thread's next partition of the same schema
        batch.close();
    }
}
