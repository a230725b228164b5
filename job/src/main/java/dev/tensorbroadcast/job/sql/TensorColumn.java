package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The {@code tensor} column: row {@code i} is the {@code rowElements} elements from {@code i * rowElements} on, a view
 * of the batch's values (an Arrow fixed-size list has no offsets to read). Rows are never null.
 */
final class TensorColumn extends ColumnVector {
    private final ColumnVector elements;
    private final int rowElements;

    TensorColumn(ArrayType type, ColumnVector elements, int rowElements) {
        super(type);
        this.elements = requireNonNull(elements, "elements is null");
        this.rowElements = rowElements;
    }

    @Override
    public ColumnarArray getArray(int rowId) {
        return new ColumnarArray(elements, rowId * rowElements, rowElements);
    }

    @Override
    public boolean hasNull() {
        return false;
    }

    @Override
    public int numNulls() {
        return 0;
    }

    @Override
    public boolean isNullAt(int rowId) {
        return false;
    }

    @Override
    public void close() {
        // the vectors belong to the reader's batch, which closes them
    }

    @Override
    public boolean getBoolean(int rowId) {
        throw notScalar();
    }

    @Override
    public byte getByte(int rowId) {
        throw notScalar();
    }

    @Override
    public short getShort(int rowId) {
        throw notScalar();
    }

    @Override
    public int getInt(int rowId) {
        throw notScalar();
    }

    @Override
    public long getLong(int rowId) {
        throw notScalar();
    }

    @Override
    public float getFloat(int rowId) {
        throw notScalar();
    }

    @Override
    public double getDouble(int rowId) {
        throw notScalar();
    }

    @Override
    public ColumnarMap getMap(int ordinal) {
        throw notScalar();
    }

    @Override
    public Decimal getDecimal(int rowId, int precision, int scale) {
        throw notScalar();
    }

    @Override
    public UTF8String getUTF8String(int rowId) {
        throw notScalar();
    }

    @Override
    public byte[] getBinary(int rowId) {
        throw notScalar();
    }

    @Override
    public ColumnVector getChild(int ordinal) {
        throw notScalar();
    }

    private static UnsupportedOperationException notScalar() {
        return new UnsupportedOperationException("the tensor column holds arrays");
    }
}
