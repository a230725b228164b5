package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.arrowio.kept.KeptRows;
import dev.tensorbroadcast.planner.SourceRows;
import java.util.ArrayList;
import java.util.List;
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
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * The kept columns of a task's rows, gathered from the DataFrame's rows (after {@code index} and {@code tensor}) as
 * Spark holds them, then put into Arrow vectors for the file writer ({@link #rows}), as a dataset's kept columns are
 * read from its input: the values Spark's types hold, converted back to the stored kind (a timestamp's microseconds to
 * its unit, a {@code decimal(20,0)} to uint64).
 */
final class KeptValues {
    /** Where the kept columns start in a row: after {@code index} and {@code tensor}. */
    private static final int FIRST = 2;

    private final List<KeptColumn> columns;
    private final List<Object[]> rows = new ArrayList<>();

    KeptValues(List<KeptColumn> columns) {
        this.columns = List.copyOf(requireNonNull(columns, "columns is null"));
    }

    /** Takes {@code row}'s kept values, copied out of Spark's reused row. */
    void add(InternalRow row) {
        Object[] values = new Object[columns.size()];
        for (int c = 0; c < values.length; c++) {
            int field = FIRST + c;
            if (row.isNullAt(field)) {
                continue;
            }
            KeptColumn column = columns.get(c);
            values[c] = switch (column.kind()) {
                case INT8 -> row.getByte(field);
                case INT16, UINT8 -> row.getShort(field);
                case INT32, UINT16, DATE32 -> row.getInt(field);
                case INT64, UINT32, TIMESTAMP_MS, TIMESTAMP_US, TIMESTAMP_NS -> row.getLong(field);
                case UINT64 ->
                    row.getDecimal(field, 20, 0)
                            .toJavaBigDecimal()
                            .toBigInteger()
                            .longValue();
                case FLOAT32 -> row.getFloat(field);
                case FLOAT64 -> row.getDouble(field);
                case BOOL -> row.getBoolean(field);
                case STRING, LARGE_STRING -> row.getUTF8String(field).getBytes();
                case BINARY, LARGE_BINARY -> row.getBinary(field).clone();
            };
        }
        rows.add(values);
    }

    /** The values gathered, as the kept rows {@code [first, first + count)} a file writer takes; close them. */
    KeptRows rows(long first) {
        KeptRows kept = KeptRows.allocate(columns, new SourceRows(first, first + rows.size()));
        for (int c = 0; c < columns.size(); c++) {
            FieldVector vector = kept.vector(c);
            for (int r = 0; r < rows.size(); r++) {
                Object value = rows.get(r)[c];
                if (value == null) {
                    vector.setNull(r);
                } else {
                    set(columns.get(c).kind(), vector, r, value);
                }
            }
        }
        return kept.finish();
    }

    private static void set(KeptColumn.Kind kind, FieldVector vector, int r, Object value) {
        switch (kind) {
            case INT8 -> ((TinyIntVector) vector).setSafe(r, (byte) value);
            case INT16 -> ((SmallIntVector) vector).setSafe(r, (short) value);
            case INT32 -> ((IntVector) vector).setSafe(r, (int) value);
            case INT64 -> ((BigIntVector) vector).setSafe(r, (long) value);
            case UINT8 -> ((UInt1Vector) vector).setSafe(r, (short) value);
            case UINT16 -> ((UInt2Vector) vector).setSafe(r, (int) value);
            case UINT32 -> ((UInt4Vector) vector).setSafe(r, (int) (long) value);
            case UINT64 -> ((UInt8Vector) vector).setSafe(r, (long) value);
            case FLOAT32 -> ((Float4Vector) vector).setSafe(r, (float) value);
            case FLOAT64 -> ((Float8Vector) vector).setSafe(r, (double) value);
            case BOOL -> ((BitVector) vector).setSafe(r, (boolean) value ? 1 : 0);
            case STRING -> ((VarCharVector) vector).setSafe(r, (byte[]) value);
            case LARGE_STRING -> ((LargeVarCharVector) vector).setSafe(r, (byte[]) value);
            case BINARY -> ((VarBinaryVector) vector).setSafe(r, (byte[]) value);
            case LARGE_BINARY -> ((LargeVarBinaryVector) vector).setSafe(r, (byte[]) value);
            case DATE32 -> ((DateDayVector) vector).setSafe(r, (int) value);
            case TIMESTAMP_MS -> ((TimeStampVector) vector).setSafe(r, Math.floorDiv((long) value, 1000L));
            case TIMESTAMP_US -> ((TimeStampVector) vector).setSafe(r, (long) value);
            case TIMESTAMP_NS -> ((TimeStampVector) vector).setSafe(r, Math.multiplyExact((long) value, 1000L));
        }
    }
}
