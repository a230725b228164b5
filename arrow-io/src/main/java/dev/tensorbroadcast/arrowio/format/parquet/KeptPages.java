package dev.tensorbroadcast.arrowio.format.parquet;

import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import java.io.IOException;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.plain.BooleanPlainValuesWriter;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Encodes a batch of a kept column as Parquet data pages: definition levels for its nulls, PLAIN values, and the
 * page's statistics (minimum, maximum, null count), so readers prune by the kept columns too. One call per row.
 */
final class KeptPages {
    /** Rows per page; a kept column has one value per row, so pages stay small next to the tensor's. */
    static final int ROWS_PER_PAGE = 1 << 16;

    private final RleRuns definition = new RleRuns(1);
    private final ValuesWriter plain = new PlainValuesWriter(1 << 16, 64 << 20, new HeapByteBufferAllocator());
    private final ValuesWriter booleans = new BooleanPlainValuesWriter();

    /** A page of rows {@code [from, to)} of {@code vector}, encoded; hands it to {@code page}. */
    interface PageSink {
        void write(int valueCount, int rowCount, BytesInput body, Statistics<?> statistics) throws IOException;
    }

    void write(KeptColumn column, PrimitiveType type, FieldVector vector, int rowCount, PageSink page)
            throws IOException {
        ValuesWriter values = column.kind() == KeptColumn.Kind.BOOL ? booleans : plain;
        for (int from = 0; from < rowCount; from += ROWS_PER_PAGE) {
            int to = Math.min(rowCount, from + ROWS_PER_PAGE);
            definition.reset();
            values.reset();
            Statistics<?> statistics = Statistics.createStats(type);
            for (int i = from; i < to; i++) {
                if (vector.isNull(i)) {
                    definition.add(0, 1);
                    statistics.incrementNumNulls();
                } else {
                    definition.add(1, 1);
                    encode(column, vector, i, values, statistics);
                }
            }
            page.write(
                    to - from,
                    to - from,
                    BytesInput.concat(definition.finishWithLength(), values.getBytes()),
                    statistics);
        }
    }

    private static void encode(
            KeptColumn column, FieldVector vector, int i, ValuesWriter values, Statistics<?> statistics) {
        switch (column.kind()) {
            case INT8 -> writeInt(((TinyIntVector) vector).get(i), values, statistics);
            case INT16 -> writeInt(((SmallIntVector) vector).get(i), values, statistics);
            case INT32 -> writeInt(((IntVector) vector).get(i), values, statistics);
            case UINT8 -> writeInt(Byte.toUnsignedInt(((UInt1Vector) vector).get(i)), values, statistics);
            case UINT16 -> writeInt(((UInt2Vector) vector).get(i), values, statistics);
            case UINT32 -> writeInt(((UInt4Vector) vector).get(i), values, statistics);
            case DATE32 -> writeInt(((DateDayVector) vector).get(i), values, statistics);
            case INT64 -> writeLong(((BigIntVector) vector).get(i), values, statistics);
            case UINT64 -> writeLong(((UInt8Vector) vector).get(i), values, statistics);
            case TIMESTAMP_MS, TIMESTAMP_US, TIMESTAMP_NS ->
                writeLong(((TimeStampVector) vector).get(i), values, statistics);
            case FLOAT32 -> {
                float value = ((Float4Vector) vector).get(i);
                values.writeFloat(value);
                statistics.updateStats(value);
            }
            case FLOAT64 -> {
                double value = ((Float8Vector) vector).get(i);
                values.writeDouble(value);
                statistics.updateStats(value);
            }
            case BOOL -> {
                boolean value = ((BitVector) vector).get(i) != 0;
                values.writeBoolean(value);
                statistics.updateStats(value);
            }
            case STRING, LARGE_STRING, BINARY, LARGE_BINARY -> {
                byte[] bytes = vector instanceof BaseVariableWidthVector variable
                        ? variable.get(i)
                        : ((BaseLargeVariableWidthVector) vector).get(i);
                Binary value = Binary.fromConstantByteArray(bytes);
                values.writeBytes(value);
                statistics.updateStats(value);
            }
        }
    }

    private static void writeInt(int value, ValuesWriter values, Statistics<?> statistics) {
        values.writeInteger(value);
        statistics.updateStats(value);
    }

    private static void writeLong(long value, ValuesWriter values, Statistics<?> statistics) {
        values.writeLong(value);
        statistics.updateStats(value);
    }
}
