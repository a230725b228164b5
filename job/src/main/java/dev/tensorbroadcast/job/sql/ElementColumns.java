package dev.tensorbroadcast.job.sql;

import dev.tensorbroadcast.planner.DType;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.spark.sql.vectorized.ColumnVector;

/**
 * The batch's values as Spark's element column: fixed-width numbers read straight from the Arrow buffers
 * ({@link FixedWidthValues}), booleans and strings through Spark's own Arrow vector; the types Spark has not
 * (unsigned, half and brain floats, complex pairs) are read from the same buffers and widened per element as Spark
 * asks for them ({@link WidenedValues}).
 */
final class ElementColumns {
    private ElementColumns() {}

    /** The column of {@code values}, whose validity bits are read only where the source {@code hasNulls}. */
    static ColumnVector of(DType dtype, FieldVector values, boolean hasNulls) {
        return switch (dtype) {
            case INT8, INT16, INT32, INT64, FLOAT32, FLOAT64 ->
                new FixedWidthValues(SparkTypes.elementType(dtype), (BaseFixedWidthVector) values, hasNulls);
            case BOOL, STRING -> new BorrowedArrowVector(values);
            case UINT8, UINT16, UINT32, UINT64, FLOAT16, BFLOAT16, COMPLEX64, COMPLEX128 ->
                WidenedValues.of(dtype, values);
        };
    }
}
