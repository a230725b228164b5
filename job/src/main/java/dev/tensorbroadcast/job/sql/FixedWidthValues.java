package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The batch's values of a fixed-width dtype Spark has (int8 to int64, float32, float64), read straight from the Arrow
 * buffers' memory. Spark turns every batch into rows for a row sink (noop, Parquet, JDBC...), reading each tensor
 * element through this column one at a time; Spark's {@code ArrowColumnVector} checks the validity bit and the
 * buffer's bounds on each (in a JFR profile of the source into {@code noop}, the conversion to rows took about three
 * times the CPU it takes with this column), while the kernel has just filled whole rows in bounds and a source
 * without nulls has no invalid element. The {@code get*s} bulk reads copy memory.
 */
final class FixedWidthValues extends ColumnVector {
    private final BaseFixedWidthVector values;
    private final boolean hasNulls;

    FixedWidthValues(DataType type, BaseFixedWidthVector values, boolean hasNulls) {
        super(type);
        this.values = requireNonNull(values, "values is null");
        this.hasNulls = hasNulls;
    }

    /** The address of element {@code rowId}: read each time, since the batch may reallocate the buffer. */
    private long address(int rowId, int width) {
        return values.getDataBuffer().memoryAddress() + (long) rowId * width;
    }

    @Override
    public boolean isNullAt(int rowId) {
        if (!hasNulls) {
            return false;
        }
        byte bits = Platform.getByte(null, values.getValidityBuffer().memoryAddress() + (rowId >>> 3));
        return ((bits >>> (rowId & 7)) & 1) == 0;
    }

    @Override
    public boolean hasNull() {
        return hasNulls && values.getNullCount() > 0;
    }

    @Override
    public int numNulls() {
        return hasNulls ? values.getNullCount() : 0;
    }

    @Override
    public byte getByte(int rowId) {
        return Platform.getByte(null, address(rowId, Byte.BYTES));
    }

    @Override
    public short getShort(int rowId) {
        return Platform.getShort(null, address(rowId, Short.BYTES));
    }

    @Override
    public int getInt(int rowId) {
        return Platform.getInt(null, address(rowId, Integer.BYTES));
    }

    @Override
    public long getLong(int rowId) {
        return Platform.getLong(null, address(rowId, Long.BYTES));
    }

    @Override
    public float getFloat(int rowId) {
        return Platform.getFloat(null, address(rowId, Float.BYTES));
    }

    @Override
    public double getDouble(int rowId) {
        return Platform.getDouble(null, address(rowId, Double.BYTES));
    }

    @Override
    public byte[] getBytes(int rowId, int count) {
        byte[] array = new byte[count];
        Platform.copyMemory(null, address(rowId, Byte.BYTES), array, Platform.BYTE_ARRAY_OFFSET, count);
        return array;
    }

    @Override
    public short[] getShorts(int rowId, int count) {
        short[] array = new short[count];
        Platform.copyMemory(
                null, address(rowId, Short.BYTES), array, Platform.SHORT_ARRAY_OFFSET, (long) count * Short.BYTES);
        return array;
    }

    @Override
    public int[] getInts(int rowId, int count) {
        int[] array = new int[count];
        Platform.copyMemory(
                null, address(rowId, Integer.BYTES), array, Platform.INT_ARRAY_OFFSET, (long) count * Integer.BYTES);
        return array;
    }

    @Override
    public long[] getLongs(int rowId, int count) {
        long[] array = new long[count];
        Platform.copyMemory(
                null, address(rowId, Long.BYTES), array, Platform.LONG_ARRAY_OFFSET, (long) count * Long.BYTES);
        return array;
    }

    @Override
    public float[] getFloats(int rowId, int count) {
        float[] array = new float[count];
        Platform.copyMemory(
                null, address(rowId, Float.BYTES), array, Platform.FLOAT_ARRAY_OFFSET, (long) count * Float.BYTES);
        return array;
    }

    @Override
    public double[] getDoubles(int rowId, int count) {
        double[] array = new double[count];
        Platform.copyMemory(
                null, address(rowId, Double.BYTES), array, Platform.DOUBLE_ARRAY_OFFSET, (long) count * Double.BYTES);
        return array;
    }

    @Override
    public void close() {
        // the vectors belong to the reader's batch, which closes them
    }

    @Override
    public boolean getBoolean(int rowId) {
        throw notThisType("boolean");
    }

    @Override
    public Decimal getDecimal(int rowId, int precision, int scale) {
        throw notThisType("decimal");
    }

    @Override
    public UTF8String getUTF8String(int rowId) {
        throw notThisType("string");
    }

    @Override
    public byte[] getBinary(int rowId) {
        throw notThisType("binary");
    }

    @Override
    public ColumnarArray getArray(int rowId) {
        throw notThisType("array");
    }

    @Override
    public ColumnarMap getMap(int ordinal) {
        throw notThisType("map");
    }

    @Override
    public ColumnVector getChild(int ordinal) {
        throw notThisType("struct");
    }

    private UnsupportedOperationException notThisType(String asked) {
        return new UnsupportedOperationException(
                "Cannot read a " + asked + " from the tensor's " + dataType().simpleString() + " elements");
    }
}
