package dev.tensorbroadcast.arrowio.kept;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.util.Optional;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

/**
 * A column of a source table that is written next to the tensor, row for row: one number, boolean, string, binary,
 * date or timestamp per row, nullable. Serializable, so a task receives it; the Arrow field and the Parquet type are
 * derived from it, so both outputs give the column its own name and type.
 *
 * @param name the column's name
 * @param kind its type
 * @param timezone a timestamp's time zone, or null (also for every other kind)
 * @param huggingFaceFeature the input's Hugging Face feature of the column as JSON ({@link HuggingFaceFeatures}),
 *     or null when the input has none
 */
public record KeptColumn(String name, Kind kind, String timezone, String huggingFaceFeature) implements Serializable {
    /** What a kept column may hold, as Arrow names it. */
    public enum Kind {
        INT8,
        INT16,
        INT32,
        INT64,
        UINT8,
        UINT16,
        UINT32,
        UINT64,
        FLOAT32,
        FLOAT64,
        BOOL,
        STRING,
        LARGE_STRING,
        BINARY,
        LARGE_BINARY,
        DATE32,
        TIMESTAMP_MS,
        TIMESTAMP_US,
        TIMESTAMP_NS;

        boolean timestamp() {
            return this == TIMESTAMP_MS || this == TIMESTAMP_US || this == TIMESTAMP_NS;
        }
    }

    /** What every kept column is, for messages. */
    public static final String ACCEPTED = "one number, boolean, string, binary, date or timestamp per row";

    public KeptColumn {
        requireNonNull(name, "name is null");
        requireNonNull(kind, "kind is null");
        if (timezone != null && !kind.timestamp()) {
            throw new IllegalArgumentException("a " + kind + " column has no time zone");
        }
    }

    /** A column without a Hugging Face feature. */
    public KeptColumn(String name, Kind kind, String timezone) {
        this(name, kind, timezone, null);
    }

    /**
     * Whether {@code other} is this column as a file stores it: the same name, kind and time zone. The Hugging Face
     * feature only describes the values, and a file read by a task is compared without it.
     */
    public boolean sameValuesAs(KeptColumn other) {
        return name.equals(other.name) && kind == other.kind && java.util.Objects.equals(timezone, other.timezone);
    }

    /** The same column with the input's Hugging Face {@code feature} (JSON). */
    public KeptColumn withHuggingFaceFeature(String feature) {
        return new KeptColumn(name, kind, timezone, requireNonNull(feature, "feature is null"));
    }

    /** The column an Arrow field describes, or empty when it is not {@link #ACCEPTED} (lists, structs, ...). */
    public static Optional<KeptColumn> ofArrow(Field field) {
        if (field.getDictionary() != null || !field.getChildren().isEmpty()) {
            return Optional.empty();
        }
        ArrowType type = field.getType();
        Kind kind = null;
        String timezone = null;
        if (type instanceof ArrowType.Int integer) {
            kind = switch (integer.getBitWidth()) {
                case 8 -> integer.getIsSigned() ? Kind.INT8 : Kind.UINT8;
                case 16 -> integer.getIsSigned() ? Kind.INT16 : Kind.UINT16;
                case 32 -> integer.getIsSigned() ? Kind.INT32 : Kind.UINT32;
                case 64 -> integer.getIsSigned() ? Kind.INT64 : Kind.UINT64;
                default -> null;
            };
        } else if (type instanceof ArrowType.FloatingPoint floating) {
            kind = switch (floating.getPrecision()) {
                case SINGLE -> Kind.FLOAT32;
                case DOUBLE -> Kind.FLOAT64;
                case HALF -> null;
            };
        } else if (type instanceof ArrowType.Bool) {
            kind = Kind.BOOL;
        } else if (type instanceof ArrowType.Utf8) {
            kind = Kind.STRING;
        } else if (type instanceof ArrowType.LargeUtf8) {
            kind = Kind.LARGE_STRING;
        } else if (type instanceof ArrowType.Utf8View) {
            // polars' strings: the values are kept, written as plain utf8
            kind = Kind.STRING;
        } else if (type instanceof ArrowType.Binary || type instanceof ArrowType.BinaryView) {
            kind = Kind.BINARY;
        } else if (type instanceof ArrowType.LargeBinary) {
            kind = Kind.LARGE_BINARY;
        } else if (type instanceof ArrowType.Date date && date.getUnit() == DateUnit.DAY) {
            kind = Kind.DATE32;
        } else if (type instanceof ArrowType.Timestamp timestamp) {
            kind = switch (timestamp.getUnit()) {
                case MILLISECOND -> Kind.TIMESTAMP_MS;
                case MICROSECOND -> Kind.TIMESTAMP_US;
                case NANOSECOND -> Kind.TIMESTAMP_NS;
                case SECOND -> null;
            };
            timezone = timestamp.getTimezone();
        }
        return kind == null ? Optional.empty() : Optional.of(new KeptColumn(field.getName(), kind, timezone));
    }

    /**
     * A dictionary-encoded column whose dictionary holds {@code values} (polars' categoricals, pyarrow's
     * {@code dictionary_encode}d strings): kept decoded, as its values' kind, or empty when they are not strings or
     * binaries.
     */
    public static Optional<KeptColumn> ofArrowDictionary(String name, ArrowType values) {
        Kind kind = null;
        if (values instanceof ArrowType.Utf8 || values instanceof ArrowType.Utf8View) {
            kind = Kind.STRING;
        } else if (values instanceof ArrowType.LargeUtf8) {
            kind = Kind.LARGE_STRING;
        } else if (values instanceof ArrowType.Binary || values instanceof ArrowType.BinaryView) {
            kind = Kind.BINARY;
        } else if (values instanceof ArrowType.LargeBinary) {
            kind = Kind.LARGE_BINARY;
        }
        return kind == null ? Optional.empty() : Optional.of(new KeptColumn(name, kind, null));
    }

    /**
     * The column a top-level Parquet column describes by its own types (files without an Arrow schema: Spark,
     * DuckDB, parquet-java), or empty when it is not {@link #ACCEPTED}. Spark's INT96 timestamps become microseconds
     * in UTC, as Spark reads them.
     */
    public static Optional<KeptColumn> ofParquet(org.apache.parquet.schema.Type type) {
        if (!type.isPrimitive() || type.isRepetition(Repetition.REPEATED)) {
            return Optional.empty();
        }
        PrimitiveType primitive = type.asPrimitiveType();
        LogicalTypeAnnotation logical = primitive.getLogicalTypeAnnotation();
        String name = type.getName();
        Kind kind = switch (primitive.getPrimitiveTypeName()) {
            case BOOLEAN -> logical == null ? Kind.BOOL : null;
            case FLOAT -> logical == null ? Kind.FLOAT32 : null;
            case DOUBLE -> logical == null ? Kind.FLOAT64 : null;
            case INT32 -> {
                if (logical == null) {
                    yield Kind.INT32;
                }
                if (logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
                    yield Kind.DATE32;
                }
                if (logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation integer) {
                    yield switch (integer.getBitWidth()) {
                        case 8 -> integer.isSigned() ? Kind.INT8 : Kind.UINT8;
                        case 16 -> integer.isSigned() ? Kind.INT16 : Kind.UINT16;
                        case 32 -> integer.isSigned() ? Kind.INT32 : Kind.UINT32;
                        default -> null;
                    };
                }
                yield null;
            }
            case INT64 -> {
                if (logical == null) {
                    yield Kind.INT64;
                }
                if (logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation integer
                        && integer.getBitWidth() == 64) {
                    yield integer.isSigned() ? Kind.INT64 : Kind.UINT64;
                }
                if (logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation timestamp) {
                    yield switch (timestamp.getUnit()) {
                        case MILLIS -> Kind.TIMESTAMP_MS;
                        case MICROS -> Kind.TIMESTAMP_US;
                        case NANOS -> Kind.TIMESTAMP_NS;
                    };
                }
                yield null;
            }
            case INT96 -> Kind.TIMESTAMP_US;
            case BINARY ->
                logical == null
                        ? Kind.BINARY
                        : logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                                        || logical instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
                                ? Kind.STRING
                                : null;
            case FIXED_LEN_BYTE_ARRAY -> null;
        };
        if (kind == null) {
            return Optional.empty();
        }
        String timezone = null;
        if (primitive.getPrimitiveTypeName() == PrimitiveTypeName.INT96) {
            timezone = "UTC";
        } else if (logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation timestamp
                && timestamp.isAdjustedToUTC()) {
            timezone = "UTC";
        }
        return Optional.of(new KeptColumn(name, kind, timezone));
    }

    /** Whether values stored as {@code physical} can be read into this kind. */
    public boolean readableFrom(PrimitiveTypeName physical) {
        return physical == parquetType().getPrimitiveTypeName()
                || (physical == PrimitiveTypeName.INT96 && kind.timestamp());
    }

    public ArrowType arrowType() {
        return switch (kind) {
            case INT8 -> new ArrowType.Int(8, true);
            case INT16 -> new ArrowType.Int(16, true);
            case INT32 -> new ArrowType.Int(32, true);
            case INT64 -> new ArrowType.Int(64, true);
            case UINT8 -> new ArrowType.Int(8, false);
            case UINT16 -> new ArrowType.Int(16, false);
            case UINT32 -> new ArrowType.Int(32, false);
            case UINT64 -> new ArrowType.Int(64, false);
            case FLOAT32 -> new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
            case FLOAT64 -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case BOOL -> ArrowType.Bool.INSTANCE;
            case STRING -> ArrowType.Utf8.INSTANCE;
            case LARGE_STRING -> ArrowType.LargeUtf8.INSTANCE;
            case BINARY -> ArrowType.Binary.INSTANCE;
            case LARGE_BINARY -> ArrowType.LargeBinary.INSTANCE;
            case DATE32 -> new ArrowType.Date(DateUnit.DAY);
            case TIMESTAMP_MS -> new ArrowType.Timestamp(TimeUnit.MILLISECOND, timezone);
            case TIMESTAMP_US -> new ArrowType.Timestamp(TimeUnit.MICROSECOND, timezone);
            case TIMESTAMP_NS -> new ArrowType.Timestamp(TimeUnit.NANOSECOND, timezone);
        };
    }

    /** The column as an Arrow field: nullable, as every kept column is. */
    public Field field() {
        return Field.nullable(name, arrowType());
    }

    /** The column as an optional top-level Parquet column, annotated as pyarrow writes that Arrow type. */
    public PrimitiveType parquetType() {
        return switch (kind) {
            case INT8 -> integer(PrimitiveTypeName.INT32, 8, true);
            case INT16 -> integer(PrimitiveTypeName.INT32, 16, true);
            case INT32 -> Types.optional(PrimitiveTypeName.INT32).named(name);
            case INT64 -> Types.optional(PrimitiveTypeName.INT64).named(name);
            case UINT8 -> integer(PrimitiveTypeName.INT32, 8, false);
            case UINT16 -> integer(PrimitiveTypeName.INT32, 16, false);
            case UINT32 -> integer(PrimitiveTypeName.INT32, 32, false);
            case UINT64 -> integer(PrimitiveTypeName.INT64, 64, false);
            case FLOAT32 -> Types.optional(PrimitiveTypeName.FLOAT).named(name);
            case FLOAT64 -> Types.optional(PrimitiveTypeName.DOUBLE).named(name);
            case BOOL -> Types.optional(PrimitiveTypeName.BOOLEAN).named(name);
            case STRING, LARGE_STRING ->
                Types.optional(PrimitiveTypeName.BINARY)
                        .as(LogicalTypeAnnotation.stringType())
                        .named(name);
            case BINARY, LARGE_BINARY ->
                Types.optional(PrimitiveTypeName.BINARY).named(name);
            case DATE32 ->
                Types.optional(PrimitiveTypeName.INT32)
                        .as(LogicalTypeAnnotation.dateType())
                        .named(name);
            case TIMESTAMP_MS -> timestamp(LogicalTypeAnnotation.TimeUnit.MILLIS);
            case TIMESTAMP_US -> timestamp(LogicalTypeAnnotation.TimeUnit.MICROS);
            case TIMESTAMP_NS -> timestamp(LogicalTypeAnnotation.TimeUnit.NANOS);
        };
    }

    private PrimitiveType integer(PrimitiveTypeName physical, int bits, boolean signed) {
        return Types.optional(physical)
                .as(LogicalTypeAnnotation.intType(bits, signed))
                .named(name);
    }

    private PrimitiveType timestamp(LogicalTypeAnnotation.TimeUnit unit) {
        return Types.optional(PrimitiveTypeName.INT64)
                .as(LogicalTypeAnnotation.timestampType(timezone != null, unit))
                .named(name);
    }

    /** The type as messages name it: {@code int64}, {@code timestamp[us, UTC]}. */
    public String typeName() {
        String base = kind.name().toLowerCase(java.util.Locale.ROOT);
        if (kind.timestamp()) {
            String unit = base.substring("timestamp_".length());
            return "timestamp[" + unit + (timezone == null ? "" : ", " + timezone) + "]";
        }
        return kind == Kind.DATE32 ? "date32" : base;
    }
}
