package dev.tensorbroadcast.job.sql;

import org.apache.arrow.vector.ValueVector;
import org.apache.spark.sql.vectorized.ArrowColumnVector;

/**
 * Spark's reader of an Arrow vector the reader's batch owns: closing the column leaves the vector to the batch, which
 * refills it for the next rows and keeps it for the thread's next partition (freeing it here would hand the batch
 * freed memory).
 */
final class BorrowedArrowVector extends ArrowColumnVector {
    BorrowedArrowVector(ValueVector vector) {
        super(vector);
    }

    @Override
    public void close() {
        // the batch closes its vectors
    }
}
