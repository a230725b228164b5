package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * A dataset's partition read with its kept columns: the batches of {@code index} and {@code tensor} as the tensor's
 * reader fills them, each followed by the same rows of the kept columns.
 */
final class KeptBatchReader implements PartitionReader<ColumnarBatch> {
    private final PartitionReader<ColumnarBatch> tensor;
    private final KeptBatches kept;
    private ColumnarBatch columns;
    /** Rows of the partition read so far: where the next batch's kept rows start. */
    private int read;

    KeptBatchReader(PartitionReader<ColumnarBatch> tensor, KeptBatches kept) {
        this.tensor = requireNonNull(tensor, "tensor is null");
        this.kept = requireNonNull(kept, "kept is null");
    }

    @Override
    public boolean next() throws IOException {
        if (!tensor.next()) {
            return false;
        }
        ColumnarBatch batch = tensor.get();
        if (columns == null) {
            ColumnVector[] all = new ColumnVector[batch.numCols() + kept.vectors().length];
            for (int c = 0; c < batch.numCols(); c++) {
                all[c] = batch.column(c);
            }
            System.arraycopy(kept.vectors(), 0, all, batch.numCols(), kept.vectors().length);
            columns = new ColumnarBatch(all);
        }
        int rows = batch.numRows();
        kept.fill(read, rows);
        read += rows;
        columns.setNumRows(rows);
        return true;
    }

    @Override
    public ColumnarBatch get() {
        return columns;
    }

    @Override
    public void close() throws IOException {
        try {
            tensor.close();
        } finally {
            kept.close();
        }
    }
}
