package dev.tensorbroadcast.arrowio.format.arrow;

import dev.tensorbroadcast.arrowio.Bits;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.arrowio.format.SourceLimits;
import dev.tensorbroadcast.arrowio.format.Utf8;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowColumn.Storage;
import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.ExtensionTypeVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;

/**
 * Copies one column of every record batch onto the heap, back to back, in stored order: values (bytes, or bits for
 * bool), UTF-8 and offsets for strings, and a validity bit per stored value. Every buffer is bounds-checked against
 * the counts before it is read, and every growth against the heap budget.
 */
final class ColumnAccumulator {
    private final String file;
    private final ArrowColumn column;
    private final HeapBudget budget;

    private byte[] values = new byte[0];
    private byte[] validity = new byte[0];
    private int[] offsets = {0};
    private int count;
    private long rows;
    private int valueBytes;
    private boolean anyNull;

    ColumnAccumulator(String file, ArrowColumn column, HeapBudget budget) {
        this.file = file;
        this.column = column;
        this.budget = budget;
    }

    int count() {
        return count;
    }

    /** Rows appended: the count of stored values divided by the list size, unless that is 0. */
    long rows() {
        return rows;
    }

    boolean anyNull() {
        return anyNull;
    }

    void append(FieldVector vector) {
        int rows = vector.getValueCount();
        FieldVector data = vector;
        byte[] rowValidity = null;
        if (column.list()) {
            FieldVector storage =
                    vector instanceof ExtensionTypeVector<?> extension ? extension.getUnderlyingVector() : vector;
            if (!(storage instanceof FixedSizeListVector list) || FixedLists.rowValues(list) != column.listSize()) {
                throw new SourceFormatException(
                        file,
                        "column '" + column.name() + "' is not stored as a " + "FixedSizeList of " + column.listSize());
            }
            rowValidity = bits(list.getValidityBuffer(), rows, list.getNullCount() > 0);
            data = FixedLists.values(file, list, 0, rows, this.rows);
        }
        // not ValueVectorUtility.validateFull: in Arrow Java 19 it fails on valid FixedSizeList and Float2 vectors;
        // every buffer is checked below before it is read
        long stored = (long) rows * column.listSize();
        if (count + stored > SourceLimits.MAX_HEAP_BYTES) {
            throw new SourceFormatException(
                    file, "column '" + column.name() + "' has more than 2^31 values; a heap " + "source holds fewer");
        }
        int n = (int) stored;
        if (data.getValueCount() < n) {
            throw new SourceFormatException(
                    file,
                    "column '" + column.name() + "' has " + data.getValueCount() + " values for " + rows + " rows of "
                            + column.listSize());
        }
        // value buffers first: once they are known to hold n values, n is backed by real bytes
        switch (column.storage()) {
            case FIXED -> {
                long bytes = (long) n * column.width();
                check(data.getDataBuffer(), 0, bytes);
                ensureValues(valueBytes + bytes);
                data.getDataBuffer().getBytes(0, values, valueBytes, (int) bytes);
                valueBytes += (int) bytes;
            }
            case BOOL -> {
                byte[] bits = bits(data.getDataBuffer(), n, true);
                ensureValues((count + (long) n + 7) / 8);
                for (int i = 0; i < n; i++) {
                    if (Bits.get(bits, i)) {
                        int at = count + i;
                        values[at >>> 3] |= (byte) (1 << (at & 7));
                    }
                }
            }
            case UTF8, LARGE_UTF8 -> appendStrings(data, n);
        }
        byte[] valueValidity = bits(data.getValidityBuffer(), n, data.getNullCount() > 0);
        appendValidity(rowValidity, valueValidity, n);
        count += n;
        this.rows += rows;
    }

    private void appendStrings(FieldVector data, int n) {
        int offsetWidth = column.storage() == Storage.UTF8 ? 4 : 8;
        ArrowBuf offsetBuffer = data.getOffsetBuffer();
        check(offsetBuffer, 0, (n + 1L) * offsetWidth);
        long first = offset(offsetBuffer, 0, offsetWidth);
        long last = offset(offsetBuffer, n, offsetWidth);
        ArrowBuf dataBuffer = data.getDataBuffer();
        if (first < 0 || last < first) {
            throw new SourceFormatException(
                    file, "column '" + column.name() + "' has string offsets from " + first + " to " + last);
        }
        long bytes = last - first;
        check(dataBuffer, first, bytes);
        ensureValues(valueBytes + bytes);
        if (offsets.length < count + n + 1) {
            budget.grow(file, 4L * offsets.length, 4L * (count + n + 1));
            offsets = Arrays.copyOf(offsets, count + n + 1);
        }
        if (bytes > 0) {
            dataBuffer.getBytes(first, values, valueBytes, (int) bytes);
        }
        long previous = first;
        for (int i = 1; i <= n; i++) {
            long offset = offset(offsetBuffer, i, offsetWidth);
            if (offset < previous || offset > last) {
                throw new SourceFormatException(
                        file, "column '" + column.name() + "' has decreasing or " + "out-of-range string offsets");
            }
            offsets[count + i] = (int) (valueBytes + offset - first);
            previous = offset;
        }
        int bad = Utf8.firstInvalid(values, valueBytes, valueBytes + (int) bytes);
        if (bad >= 0) {
            throw new SourceFormatException(
                    file,
                    "column '" + column.name() + "' holds a string that is not valid " + "UTF-8 (byte 0x"
                            + String.format("%02X", values[bad] & 0xFF) + ")");
        }
        valueBytes += (int) bytes;
    }

    private static long offset(ArrowBuf buffer, int index, int width) {
        return width == 4 ? buffer.getInt(4L * index) : buffer.getLong(8L * index);
    }

    /** Element validity = row validity (repeated over the row's values) and value validity. */
    private void appendValidity(byte[] rowValidity, byte[] valueValidity, int n) {
        long bytes = (count + (long) n + 7) / 8;
        if (validity.length < bytes) {
            long grown = Math.max(bytes, Math.min(2L * validity.length, SourceLimits.MAX_HEAP_BYTES));
            budget.grow(file, validity.length, grown);
            validity = Arrays.copyOf(validity, (int) grown);
        }
        int listSize = column.listSize();
        for (int i = 0; i < n; i++) {
            boolean valid = (valueValidity == null || Bits.get(valueValidity, i))
                    && (rowValidity == null || Bits.get(rowValidity, i / listSize));
            int at = count + i;
            if (valid) {
                validity[at >>> 3] |= (byte) (1 << (at & 7));
            } else {
                anyNull = true;
            }
        }
    }

    private void ensureValues(long needed) {
        if (values.length < needed) {
            long grown = Math.max(needed, Math.min(2L * values.length, SourceLimits.MAX_HEAP_BYTES));
            budget.grow(file, values.length, grown);
            values = Arrays.copyOf(values, (int) grown);
        }
    }

    /** A buffer's first {@code n} bits, or null when {@code present} is false (no nulls: no bitmap needed). */
    private byte[] bits(ArrowBuf buffer, int n, boolean present) {
        if (!present) {
            return null;
        }
        int length = (n + 7) / 8;
        check(buffer, 0, length);
        byte[] bits = new byte[length];
        if (length > 0) {
            buffer.getBytes(0, bits, 0, length);
        }
        return bits;
    }

    /** Rejects a buffer shorter than the counts say, before anything is allocated for it. */
    private void check(ArrowBuf buffer, long from, long length) {
        long capacity = buffer == null ? 0 : buffer.capacity();
        if (length > 0 && (from < 0 || capacity - from < length)) {
            throw new SourceFormatException(
                    file,
                    "column '" + column.name() + "' has a buffer of " + capacity + " bytes where " + (from + length)
                            + " are needed");
        }
    }

    /** Values, trimmed: bytes for fixed-width types, bits for bool, UTF-8 for strings. */
    byte[] values() {
        int length = column.storage() == Storage.BOOL ? (count + 7) / 8 : valueBytes;
        return values.length == length ? values : trimmed(values, length);
    }

    /** String offsets, {@code count + 1} of them. */
    int[] offsets() {
        return offsets.length == count + 1 ? offsets : Arrays.copyOf(offsets, count + 1);
    }

    /** The validity bitmap, or null when no value is null. */
    byte[] validity() {
        return anyNull ? trimmed(validity, (count + 7) / 8) : null;
    }

    private byte[] trimmed(byte[] array, int length) {
        if (array.length == length) {
            return array;
        }
        budget.grow(file, 0, length);
        return Arrays.copyOf(array, length);
    }
}
