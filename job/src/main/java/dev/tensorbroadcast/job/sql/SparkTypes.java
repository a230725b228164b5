package dev.tensorbroadcast.job.sql;

import dev.tensorbroadcast.arrowio.TensorFileSchema;
import dev.tensorbroadcast.job.base.SparkElementTypes;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructType;

/**
 * The table's Spark types, as the Java API's {@code toDataset} has them: unsigned types widen to the next signed type
 * (uint64 to decimal(20,0)), half and brain floats to float, complex numbers are {@code struct<real, imag>}; the row
 * shape is the tensor column's {@link #SHAPE_METADATA}.
 */
final class SparkTypes {
    /** The column metadata key of a row's shape, as the Java API's datasets name it. */
    static final String SHAPE_METADATA = "tensor_shape";

    private SparkTypes() {}

    static StructType schema(DType dtype, boolean hasNulls, Shape rowShape) {
        Metadata shape = new MetadataBuilder()
                .putLongArray(SHAPE_METADATA, rowShape.dims())
                .build();
        return new StructType()
                .add(TensorFileSchema.INDEX_COLUMN, DataTypes.LongType, false)
                .add(
                        TensorFileSchema.TENSOR_COLUMN,
                        DataTypes.createArrayType(elementType(dtype), hasNulls),
                        false,
                        shape);
    }

    static DataType elementType(DType dtype) {
        return SparkElementTypes.of(dtype);
    }
}
