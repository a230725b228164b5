package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.InvalidRequestException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.unsafe.Platform;

/**
 * A sink task's tensor values, gathered row by row as little-endian bytes. A row in Spark's own layout
 * ({@link UnsafeArrayData}: what a scan or a projection hands a writer) is checked for nulls a word of its null bits at
 * a time and copied in one call, as its values are already little-endian on a little-endian machine; any other array
 * is taken element by element.
 */
final class RowValues {
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private final DType dtype;
    private final int width;
    private final ByteBuffer element = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private byte[] bytes = new byte[1 << 16];
    private int size;

    RowValues(DType dtype) {
        this.dtype = requireNonNull(dtype, "dtype is null");
        this.width = switch (dtype) {
            case INT8 -> Byte.BYTES;
            case INT16 -> Short.BYTES;
            case INT32, FLOAT32 -> Integer.BYTES;
            case INT64, FLOAT64 -> Long.BYTES;
            default -> throw new IllegalArgumentException("Cannot gather values of " + dtype.typeName());
        };
    }

    /** Appends the values of row {@code index}, refusing a null value in one line. */
    void append(ArrayData tensor, long index) {
        int count = tensor.numElements();
        long length = (long) count * width;
        reserve(length);
        if (LITTLE_ENDIAN && tensor instanceof UnsafeArrayData unsafe) {
            Object base = unsafe.getBaseObject();
            long offset = unsafe.getBaseOffset();
            long header = UnsafeArrayData.calculateHeaderPortionInBytes(count);
            // the null bits follow the 8-byte count; a set bit anywhere is a null value
            for (long word = Long.BYTES; word < header; word += Long.BYTES) {
                if (Platform.getLong(base, offset + word) != 0) {
                    throw nullValue(index);
                }
            }
            Platform.copyMemory(base, offset + header, bytes, Platform.BYTE_ARRAY_OFFSET + size, length);
            size += (int) length;
            return;
        }
        for (int i = 0; i < count; i++) {
            if (tensor.isNullAt(i)) {
                throw nullValue(index);
            }
            element.clear();
            switch (dtype) {
                case INT8 -> element.put(tensor.getByte(i));
                case INT16 -> element.putShort(tensor.getShort(i));
                case INT32 -> element.putInt(tensor.getInt(i));
                case INT64 -> element.putLong(tensor.getLong(i));
                case FLOAT32 -> element.putFloat(tensor.getFloat(i));
                case FLOAT64 -> element.putDouble(tensor.getDouble(i));
                default -> throw new IllegalStateException(dtype.typeName());
            }
            System.arraycopy(element.array(), 0, bytes, size, width);
            size += width;
        }
    }

    /** The values gathered so far. */
    byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    void reset() {
        size = 0;
    }

    private void reserve(long more) {
        long needed = size + more;
        if (needed > Integer.MAX_VALUE - 8) {
            throw new InvalidRequestException(
                    "Cannot write a tensorbroadcast dataset: a partition holds more than 2 GiB"
                            + " of tensor values; repartition the DataFrame into smaller partitions");
        }
        if (needed > bytes.length) {
            bytes = Arrays.copyOf(bytes, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, 2L * bytes.length)));
        }
    }

    private static InvalidRequestException nullValue(long index) {
        return new InvalidRequestException("Cannot write a tensorbroadcast dataset: row " + index
                + " holds a null value; only rows without nulls are written");
    }
}
