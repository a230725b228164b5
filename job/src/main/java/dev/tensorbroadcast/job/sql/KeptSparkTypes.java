package dev.tensorbroadcast.job.sql;

import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.arrowio.kept.KeptColumn.Kind;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The Spark type of each kept column, as Spark's own Parquet reader types the column: unsigned integers widened to the
 * next signed type (uint64 to decimal(20,0)), timestamps in microseconds, {@code timestamp} with a time zone (an
 * instant) and {@code timestamp_ntz} without one.
 */
final class KeptSparkTypes {
    private KeptSparkTypes() {}

    /** The column metadata key of a kept column's type as the dataset stores it ({@code uint16}, {@code timestamp[ms]}). */
    static final String KEPT_TYPE_METADATA = "tensorbroadcast_kept_type";
    /** The column metadata key of a kept column's Hugging Face feature (JSON), where the dataset has one. */
    static final String FEATURE_METADATA = "huggingface_feature";

    /**
     * {@code schema} with the kept columns after it, each nullable: a kept column's nulls stay null. Each carries its
     * stored type in its metadata, which Spark's type does not tell (uint16 or int32, the timestamp's unit), so that
     * the sink writes it back as it was.
     */
    static StructType withKept(StructType schema, List<KeptColumn> kept) {
        StructType with = schema;
        for (KeptColumn column : kept) {
            MetadataBuilder metadata = new MetadataBuilder().putString(KEPT_TYPE_METADATA, column.typeName());
            if (column.huggingFaceFeature() != null) {
                metadata.putString(FEATURE_METADATA, column.huggingFaceFeature());
            }
            with = with.add(column.name(), of(column), true, metadata.build());
        }
        return with;
    }

    /**
     * The kept column a DataFrame's column is written as: the type in its metadata where this data source's table
     * put one and Spark's type is still its own, else the kind Spark's type is ({@code timestamp} as microseconds in
     * UTC); empty for a type no kept column has.
     */
    static Optional<KeptColumn> column(StructField field) {
        if (field.metadata().contains(KEPT_TYPE_METADATA)) {
            KeptColumn stored = parse(field.name(), field.metadata().getString(KEPT_TYPE_METADATA));
            if (stored != null && of(stored).equals(field.dataType())) {
                return Optional.of(
                        field.metadata().contains(FEATURE_METADATA)
                                ? stored.withHuggingFaceFeature(field.metadata().getString(FEATURE_METADATA))
                                : stored);
            }
        }
        DataType type = field.dataType();
        Kind kind = null;
        String timezone = null;
        if (type.equals(DataTypes.ByteType)) {
            kind = Kind.INT8;
        } else if (type.equals(DataTypes.ShortType)) {
            kind = Kind.INT16;
        } else if (type.equals(DataTypes.IntegerType)) {
            kind = Kind.INT32;
        } else if (type.equals(DataTypes.LongType)) {
            kind = Kind.INT64;
        } else if (type.equals(DataTypes.createDecimalType(20, 0))) {
            kind = Kind.UINT64;
        } else if (type.equals(DataTypes.FloatType)) {
            kind = Kind.FLOAT32;
        } else if (type.equals(DataTypes.DoubleType)) {
            kind = Kind.FLOAT64;
        } else if (type.equals(DataTypes.BooleanType)) {
            kind = Kind.BOOL;
        } else if (type.equals(DataTypes.StringType)) {
            kind = Kind.STRING;
        } else if (type.equals(DataTypes.BinaryType)) {
            kind = Kind.BINARY;
        } else if (type.equals(DataTypes.DateType)) {
            kind = Kind.DATE32;
        } else if (type.equals(DataTypes.TimestampType)) {
            kind = Kind.TIMESTAMP_US;
            timezone = "UTC";
        } else if (type.equals(DataTypes.TimestampNTZType)) {
            kind = Kind.TIMESTAMP_US;
        }
        return kind == null ? Optional.empty() : Optional.of(new KeptColumn(field.name(), kind, timezone));
    }

    /** The column {@link KeptColumn#typeName} names, or null for a name it never gives. */
    private static KeptColumn parse(String name, String typeName) {
        if (typeName.startsWith("timestamp[") && typeName.endsWith("]")) {
            String[] parts = typeName.substring("timestamp[".length(), typeName.length() - 1)
                    .split(", ", 2);
            Kind kind = switch (parts[0]) {
                case "ms" -> Kind.TIMESTAMP_MS;
                case "us" -> Kind.TIMESTAMP_US;
                case "ns" -> Kind.TIMESTAMP_NS;
                default -> null;
            };
            return kind == null ? null : new KeptColumn(name, kind, parts.length > 1 ? parts[1] : null);
        }
        for (Kind kind : Kind.values()) {
            KeptColumn column = new KeptColumn(name, kind, null);
            if (!kind.name().startsWith("TIMESTAMP") && column.typeName().equals(typeName)) {
                return column;
            }
        }
        return null;
    }

    /**
     * The bytes a row of the kept columns is estimated at for the optimizer: each column's Spark type's default size
     * (the fixed types' widths, 20 for a string, 100 for a binary, 16 for a {@code decimal(20,0)}), as Spark's own
     * estimates size a row of those types, since the lengths of strings are not known without reading them.
     */
    static long rowBytes(List<KeptColumn> kept) {
        return kept.stream().mapToLong(column -> of(column).defaultSize()).sum();
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
