package dev.tensorbroadcast.arrowio.kept;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/** Reads a kept column's values from parquet-java's column reader into an Arrow vector, one call per row. */
public final class KeptParquetValues {
    private static final long JULIAN_EPOCH_DAY = 2_440_588;
    private static final long NANOS_PER_DAY = 86_400L * 1_000_000_000L;

    private KeptParquetValues() {}

    /**
     * Reads rows {@code [0, last)} of a row group's column, keeping rows {@code [first, last)} into {@code to} from
     * entry {@code at} on. {@code maxDefinition} is the column's (0 required, 1 optional).
     */
    public static void read(
            ColumnReader reader,
            KeptColumn column,
            PrimitiveTypeName physical,
            int maxDefinition,
            long first,
            long last,
            FieldVector to,
            int at) {
        for (long row = 0; row < last; row++) {
            boolean present = reader.getCurrentDefinitionLevel() == maxDefinition;
            if (row < first) {
                if (present) {
                    reader.skip();
                }
            } else if (present) {
                set(reader, column, physical, to, (int) (at + row - first));
            } else {
                setNull(to, (int) (at + row - first));
            }
            reader.consume();
        }
    }

    private static void set(ColumnReader reader, KeptColumn column, PrimitiveTypeName physical, FieldVector to, int i) {
        switch (column.kind()) {
            case INT8 -> ((TinyIntVector) to).setSafe(i, (byte) reader.getInteger());
            case INT16 -> ((SmallIntVector) to).setSafe(i, (short) reader.getInteger());
            case INT32 -> ((IntVector) to).setSafe(i, reader.getInteger());
            case INT64 -> ((BigIntVector) to).setSafe(i, reader.getLong());
            case UINT8 -> ((UInt1Vector) to).setSafe(i, reader.getInteger());
            case UINT16 -> ((UInt2Vector) to).setSafe(i, reader.getInteger());
            case UINT32 -> ((UInt4Vector) to).setSafe(i, reader.getInteger());
            case UINT64 -> ((UInt8Vector) to).setSafe(i, reader.getLong());
            case FLOAT32 -> ((Float4Vector) to).setSafe(i, reader.getFloat());
            case FLOAT64 -> ((Float8Vector) to).setSafe(i, reader.getDouble());
            case BOOL -> ((BitVector) to).setSafe(i, reader.getBoolean() ? 1 : 0);
            case STRING -> ((VarCharVector) to).setSafe(i, reader.getBinary().getBytes());
            case LARGE_STRING ->
                ((LargeVarCharVector) to).setSafe(i, reader.getBinary().getBytes());
            case BINARY -> ((VarBinaryVector) to).setSafe(i, reader.getBinary().getBytes());
            case LARGE_BINARY ->
                ((LargeVarBinaryVector) to).setSafe(i, reader.getBinary().getBytes());
            case DATE32 -> ((DateDayVector) to).setSafe(i, reader.getInteger());
            case TIMESTAMP_MS, TIMESTAMP_US, TIMESTAMP_NS ->
                ((TimeStampVector) to)
                        .setSafe(
                                i,
                                physical == PrimitiveTypeName.INT96
                                        ? fromInt96(reader.getBinary(), column.kind())
                                        : reader.getLong());
        }
    }

    /** Spark's legacy timestamps: nanoseconds of the day, then the Julian day, both little-endian. */
    static long fromInt96(Binary value, KeptColumn.Kind kind) {
        ByteBuffer bytes = value.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        long nanosOfDay = bytes.getLong(bytes.position());
        long julianDay = Integer.toUnsignedLong(bytes.getInt(bytes.position() + 8));
        long nanos = (julianDay - JULIAN_EPOCH_DAY) * NANOS_PER_DAY + nanosOfDay;
        return switch (kind) {
            case TIMESTAMP_MS -> Math.floorDiv(nanos, 1_000_000L);
            case TIMESTAMP_US -> Math.floorDiv(nanos, 1_000L);
            default -> nanos;
        };
    }

    static void setNull(FieldVector vector, int i) {
        if (vector instanceof BaseFixedWidthVector fixed) {
            fixed.setNull(i);
        } else if (vector instanceof BaseVariableWidthVector variable) {
            variable.setNull(i);
        } else if (vector instanceof BaseLargeVariableWidthVector large) {
            large.setNull(i);
        } else {
            throw new IllegalArgumentException("Cannot set a null in " + vector.getField());
        }
    }
}
