package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.InvalidRequestException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.unsafe.Platform;

/**
 * A sink task's tensor values, gathered row by row as little-endian bytes into a buffer of {@link #BUFFER_BYTES}
 * that is written to the task's spill file whenever it fills: the task holds the buffer, not its partition. A row in
 * Spark's own layout ({@link UnsafeArrayData}: what a scan or a projection hands a writer) is checked for nulls a word
 * of its null bits at a time and copied in one call per buffer, as its values are already little-endian on a
 * little-endian machine; any other array is taken element by element.
 */
final class RowValues {
    /** The values held before they are written to the file. */
    static final int BUFFER_BYTES = 1 << 20;

    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private final DType dtype;
    private final int width;
    private final FileChannel file;
    private final ByteBuffer element = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private final byte[] bytes = new byte[BUFFER_BYTES];
    private int size;
    /** The bytes written to the file so far. */
    private long written;

    RowValues(DType dtype, FileChannel file) {
        this.dtype = requireNonNull(dtype, "dtype is null");
        this.file = requireNonNull(file, "file is null");
        this.width = switch (dtype) {
            case INT8 -> Byte.BYTES;
            case INT16 -> Short.BYTES;
            case INT32, FLOAT32 -> Integer.BYTES;
            case INT64, FLOAT64 -> Long.BYTES;
            default -> throw new IllegalArgumentException("Cannot gather values of " + dtype.typeName());
        };
    }

    /** Appends the values of row {@code index}, refusing a null value in one line. */
    void append(ArrayData tensor, long index) throws IOException {
        int count = tensor.numElements();
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
            long length = (long) count * width;
            for (long done = 0; done < length; ) {
                int piece = (int) Math.min(length - done, bytes.length - size);
                Platform.copyMemory(base, offset + header + done, bytes, Platform.BYTE_ARRAY_OFFSET + size, piece);
                size += piece;
                done += piece;
                if (size == bytes.length) {
                    flush();
                }
            }
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
            if (size + width > bytes.length) {
                flush();
            }
            System.arraycopy(element.array(), 0, bytes, size, width);
            size += width;
        }
    }

    /** The bytes appended so far. */
    long bytes() {
        return written + size;
    }

    /** Writes what the buffer holds to the file, which then holds every value appended, from its first byte. */
    FileChannel finish() throws IOException {
        flush();
        return file;
    }

    private void flush() throws IOException {
        ByteBuffer pending = ByteBuffer.wrap(bytes, 0, size);
        while (pending.hasRemaining()) {
            written += file.write(pending, written);
        }
        size = 0;
    }

    private static InvalidRequestException nullValue(long index) {
        return new InvalidRequestException("Cannot write a tensorbroadcast dataset: row " + index
                + " holds a null value; only rows without nulls are written");
    }
}
