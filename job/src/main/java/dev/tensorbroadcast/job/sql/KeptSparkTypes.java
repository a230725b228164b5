package dev.tensorbroadcast.job.sql;

import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import java.util.List;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The Spark type of each kept column, as Spark's own Parquet reader types the column: unsigned integers widened to the
 * next signed type (uint64 to decimal(20,0)), timestamps in microseconds, {@code timestamp} with a time zone (an
 * instant) and {@code timestamp_ntz} without one.
 */
final class KeptSparkTypes {
    private KeptSparkTypes() {}

    /** {@code schema} with the kept columns after it, each nullable: a kept column's nulls stay null. */
    static StructType withKept(StructType schema, List<KeptColumn> kept) {
        StructType with = schema;
        for (KeptColumn column : kept) {
            with = with.add(column.name(), of(column), true);
        }
        return with;
    }

    static DataType of(KeptColumn column) {
        return switch (column.kind()) {
            case INT8 -> DataTypes.ByteType;
            case INT16, UINT8 -> DataTypes.ShortType;
            case INT32, UINT16 -> DataTypes.IntegerType;
            case INT64, UINT32 -> DataTypes.LongType;
            case UINT64 -> DataTypes.createDecimalType(20, 0);
            case FLOAT32 -> DataTypes.FloatType;
            case FLOAT64 -> DataTypes.DoubleType;
            case BOOL -> DataTypes.BooleanType;
            case STRING, LARGE_STRING -> DataTypes.StringType;
            case BINARY, LARGE_BINARY -> DataTypes.BinaryType;
            case DATE32 -> DataTypes.DateType;
            case TIMESTAMP_MS, TIMESTAMP_US, TIMESTAMP_NS ->
                column.timezone() == null ? DataTypes.TimestampNTZType : DataTypes.TimestampType;
        };
    }
}
