package dev.tensorbroadcast.job.base;

import dev.tensorbroadcast.planner.DType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The Spark type a tensor element of each dtype is shown as, by the DataFrame API and by the data source alike:
 * unsigned integers widened to the next signed type (uint64 to a 20-digit decimal), float16 and bfloat16 as float,
 * a complex number as a struct of its real and imaginary parts.
 */
public final class SparkElementTypes {
    private static final StructType COMPLEX64 = complex(DataTypes.FloatType);
    private static final StructType COMPLEX128 = complex(DataTypes.DoubleType);

    private SparkElementTypes() {}

    public static DataType of(DType dtype) {
        return switch (dtype) {
            case BOOL -> DataTypes.BooleanType;
            case INT8 -> DataTypes.ByteType;
            case INT16, UINT8 -> DataTypes.ShortType;
            case INT32, UINT16 -> DataTypes.IntegerType;
            case INT64, UINT32 -> DataTypes.LongType;
            case UINT64 -> DataTypes.createDecimalType(20, 0);
            case FLOAT16, BFLOAT16, FLOAT32 -> DataTypes.FloatType;
            case FLOAT64 -> DataTypes.DoubleType;
            case COMPLEX64 -> COMPLEX64;
            case COMPLEX128 -> COMPLEX128;
            case STRING -> DataTypes.StringType;
        };
    }

    private static StructType complex(DataType part) {
        return new StructType().add("real", part, false).add("imag", part, false);
    }
}
