package dev.tensorbroadcast.job.sql;

import dev.tensorbroadcast.planner.DType;
import org.apache.arrow.vector.FieldVector;
import org.apache.spark.sql.vectorized.ColumnVector;

/**
 * The batch's values as Spark's element column: Spark's own Arrow vector wherever Spark has the Arrow type; the types
 * Spark has not (unsigned, half and brain floats, complex pairs) are read from the same buffers and widened per
 * element as Spark asks for them ({@link WidenedValues}).
 */
final class ElementColumns {
    private ElementColumns() {}

    static ColumnVector of(DType dtype, FieldVector values) {
        return switch (dtype) {
            case BOOL, INT8, INT16, INT32, INT64, FLOAT32, FLOAT64, STRING -> new BorrowedArrowVector(values);
            case UINT8, UINT16, UINT32, UINT64, FLOAT16, BFLOAT16, COMPLEX64, COMPLEX128 ->
                WidenedValues.of(dtype, values);
        };
    }
}
