package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.DType;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.apache.arrow.memory.util.Float16;
import org.apache.arrow.vector.FieldVector;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Values of a dtype Spark has no Arrow reader for, read from the Arrow buffers and widened to the type Spark has for
 * it ({@link SparkTypes#elementType}): uint8 to short, uint16 to int, uint32 to long, uint64 to decimal(20,0), half
 * and brain floats to float. A complex element is a struct whose two children read the real and imaginary parts of
 * the interleaved pairs.
 */
final class WidenedValues extends ColumnVector {
    private final DType dtype;
    private final FieldVector values;
    /** Stored values per element (2 for a complex part, else 1) and which of them this column reads. */
    private final int stride;

    private final int part;
    private final WidenedValues[] parts;

    private WidenedValues(DType dtype, FieldVector values, int stride, int part, WidenedValues[] parts) {
        super(
                part < 0
                        ? SparkTypes.elementType(dtype)
                        : dtype == DType.COMPLEX64 ? DataTypes.FloatType : DataTypes.DoubleType);
        this.dtype = requireNonNull(dtype, "dtype is null");
        this.values = requireNonNull(values, "values is null");
        this.stride = stride;
        this.part = part;
        this.parts = parts;
    }

    static WidenedValues of(DType dtype, FieldVector values) {
        if (dtype == DType.COMPLEX64 || dtype == DType.COMPLEX128) {
            WidenedValues[] parts = {
                new WidenedValues(dtype, values, 2, 0, null), new WidenedValues(dtype, values, 2, 1, null)
            };
            return new WidenedValues(dtype, values, 2, -1, parts);
        }
        return new WidenedValues(dtype, values, 1, -1, null);
    }

    /** The stored value of element {@code rowId}: its part, or the real part of a pair (whose bits are equal). */
    private long stored(int rowId) {
        return (long) rowId * stride + Math.max(part, 0);
    }

    @Override
    public boolean isNullAt(int rowId) {
        return values.isNull((int) stored(rowId));
    }

    @Override
    public boolean hasNull() {
        return values.getNullCount() > 0;
    }

    @Override
    public int numNulls() {
        // a complex element is null in both stored values
        return values.getNullCount() / stride;
    }

    @Override
    public short getShort(int rowId) {
        return (short) (values.getDataBuffer().getByte(rowId) & 0xFF);
    }

    @Override
    public int getInt(int rowId) {
        return values.getDataBuffer().getShort(2L * rowId) & 0xFFFF;
    }

    @Override
    public long getLong(int rowId) {
        return values.getDataBuffer().getInt(4L * rowId) & 0xFFFF_FFFFL;
    }

    @Override
    public Decimal getDecimal(int rowId, int precision, int scale) {
        long bits = values.getDataBuffer().getLong(8L * rowId);
        BigDecimal value = new BigDecimal(
                bits >= 0 ? BigInteger.valueOf(bits) : BigInteger.valueOf(bits).add(BigInteger.ONE.shiftLeft(64)));
        return Decimal.apply(value, precision, scale);
    }

    @Override
    public float getFloat(int rowId) {
        return switch (dtype) {
            case FLOAT16 -> Float16.toFloat(values.getDataBuffer().getShort(2L * rowId));
            case BFLOAT16 -> Float.intBitsToFloat((values.getDataBuffer().getShort(2L * rowId) & 0xFFFF) << 16);
            case COMPLEX64 -> values.getDataBuffer().getFloat(4L * stored(rowId));
            default -> throw notOf("float");
        };
    }

    @Override
    public double getDouble(int rowId) {
        if (dtype != DType.COMPLEX128) {
            throw notOf("double");
        }
        return values.getDataBuffer().getDouble(8L * stored(rowId));
    }

    @Override
    public ColumnVector getChild(int ordinal) {
        if (parts == null) {
            throw notOf("struct");
        }
        return parts[ordinal];
    }

    @Override
    public void close() {
        // the vectors belong to the reader's batch, which closes them
    }

    @Override
    public boolean getBoolean(int rowId) {
        throw notOf("boolean");
    }

    @Override
    public byte getByte(int rowId) {
        throw notOf("byte");
    }

    @Override
    public ColumnarArray getArray(int rowId) {
        throw notOf("array");
    }

    @Override
    public ColumnarMap getMap(int ordinal) {
        throw notOf("map");
    }

    @Override
    public UTF8String getUTF8String(int rowId) {
        throw notOf("string");
    }

    @Override
    public byte[] getBinary(int rowId) {
        throw notOf("binary");
    }

    private UnsupportedOperationException notOf(String type) {
        return new UnsupportedOperationException("Cannot read " + dtype.typeName() + " values as " + type);
    }
}
