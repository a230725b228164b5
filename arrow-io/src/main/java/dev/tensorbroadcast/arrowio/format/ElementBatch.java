package dev.tensorbroadcast.arrowio.format;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.DType;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.ByteFunctionHelpers;

/**
 * A batch of consecutive rows of a dataset, as logical elements in the layout of {@code SourceTensor}: fixed-width
 * values little-endian ({@code bool} bit-packed, complex as real then imaginary part), one validity bit per element,
 * strings as int32 offsets from 0 plus UTF-8 data. The buffers are reused from batch to batch and grow only when a
 * batch needs more, so memory is bounded by the largest batch.
 */
public final class ElementBatch implements AutoCloseable {
    private final BufferAllocator allocator;
    private final DType dtype;
    private long firstRow;
    private int rows;
    private int elements;
    private ArrowBuf values;
    private ArrowBuf validity;
    private ArrowBuf offsets;
    private ArrowBuf data;

    public ElementBatch(BufferAllocator allocator, DType dtype) {
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.dtype = requireNonNull(dtype, "dtype is null");
        this.values = allocator.getEmpty();
        this.validity = allocator.getEmpty();
        this.offsets = allocator.getEmpty();
        this.data = allocator.getEmpty();
    }

    /** Starts a batch: sizes the values, validity and offsets for {@code elements} elements; contents are undefined. */
    public void reset(long firstRow, int rows, int elements) {
        this.firstRow = firstRow;
        this.rows = rows;
        this.elements = elements;
        validity = ensure(validity, bitBytes(elements), false);
        if (dtype == DType.STRING) {
            offsets = ensure(offsets, (elements + 1L) * Integer.BYTES, false);
        } else {
            values = ensure(values, valueBytes(elements), false);
        }
    }

    /** Makes room for {@code bytes} of string data, keeping what is already there. */
    public ArrowBuf ensureData(long bytes) {
        data = ensure(data, bytes, true);
        return data;
    }

    public DType dtype() {
        return dtype;
    }

    public long firstRow() {
        return firstRow;
    }

    public int rows() {
        return rows;
    }

    public int elements() {
        return elements;
    }

    public ArrowBuf values() {
        return values;
    }

    public ArrowBuf validity() {
        return validity;
    }

    public ArrowBuf offsets() {
        return offsets;
    }

    public ArrowBuf data() {
        return data;
    }

    public boolean isValid(int index) {
        return (validity.getByte(index >>> 3) & (1 << (index & 7))) != 0;
    }

    public void setValid(int index, boolean valid) {
        int at = index >>> 3;
        byte bits = validity.getByte(at);
        validity.setByte(at, valid ? bits | (1 << (index & 7)) : bits & ~(1 << (index & 7)));
    }

    public boolean bit(int index) {
        return (values.getByte(index >>> 3) & (1 << (index & 7))) != 0;
    }

    public void setBit(int index, boolean value) {
        int at = index >>> 3;
        byte bits = values.getByte(at);
        values.setByte(at, value ? bits | (1 << (index & 7)) : bits & ~(1 << (index & 7)));
    }

    /** Marks every element present. */
    public void setAllValid() {
        validity.setOne(0, bitBytes(elements));
    }

    /** The number of null elements. */
    public long nullCount() {
        long nulls = 0;
        for (int i = 0; i < elements; i++) {
            if (!isValid(i)) {
                nulls++;
            }
        }
        return nulls;
    }

    /** Bytes of values for {@code count} fixed-width elements: bits for {@code bool}; strings have offsets instead. */
    public long valueBytes(long count) {
        return dtype == DType.BOOL ? bitBytes(count) : count * dtype.byteWidth();
    }

    /** Whether bits {@code [0, count)} of two bitmaps agree. */
    public static boolean sameBits(ArrowBuf left, ArrowBuf right, int count) {
        int whole = count >>> 3;
        if (whole > 0 && ByteFunctionHelpers.equal(left, 0, whole, right, 0, whole) == 0) {
            return false;
        }
        int tail = count & 7;
        if (tail == 0) {
            return true;
        }
        int mask = (1 << tail) - 1;
        return ((left.getByte(whole) ^ right.getByte(whole)) & mask) == 0;
    }

    public static long bitBytes(long count) {
        return (count + 7) >>> 3;
    }

    private ArrowBuf ensure(ArrowBuf buffer, long bytes, boolean keep) {
        if (buffer.capacity() >= bytes) {
            return buffer;
        }
        ArrowBuf bigger = allocator.buffer(Math.max(bytes, buffer.capacity() * 2));
        if (keep && buffer.capacity() > 0) {
            bigger.setBytes(0, buffer, 0, buffer.capacity());
        }
        buffer.close();
        return bigger;
    }

    @Override
    public void close() {
        values.close();
        validity.close();
        offsets.close();
        data.close();
    }
}
