package dev.tensorbroadcast.arrowio.source;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.util.Arrays;

/**
 * The heap tensor a slice of dataset rows is read into: fixed-width little-endian values, and a validity bitmap made
 * only when an element is null.
 */
public final class SliceBuffer {
    private final DType dtype;
    private final Shape shape;
    private final long rowElements;
    private final long innerLength;
    private final byte[] values;
    private byte[] validity;

    SliceBuffer(String location, DType dtype, Shape rowShape, long rows) {
        this.dtype = dtype;
        long[] row = rowShape.dims();
        long[] dims = new long[row.length + 1];
        dims[0] = rows;
        System.arraycopy(row, 0, dims, 1, row.length);
        this.shape = Shape.of(dims);
        this.rowElements = rowShape.elements();
        this.innerLength = rowShape.rank() == 0 ? 1 : rowShape.dim(rowShape.rank() - 1);
        long bytes = shape.elements() * dtype.byteWidth();
        if (shape.elements() > SourceLimits.MAX_HEAP_BYTES || bytes > SourceLimits.MAX_HEAP_BYTES) {
            throw new SourceFormatException(location, rows + " rows of " + rowShape.toList() + " " + dtype.typeName()
                    + " need " + bytes + " bytes, more than one task holds on its heap; use more partitions");
        }
        this.values = new byte[(int) bytes];
    }

    public DType dtype() {
        return dtype;
    }

    public int width() {
        return dtype.byteWidth();
    }

    /** The last dim of a row: the length every innermost list of a nested list column must have. */
    public long innerLength() {
        return innerLength;
    }

    public long rowElements() {
        return rowElements;
    }

    public byte[] values() {
        return values;
    }

    /** The byte offset of element {@code element} of row {@code row}. */
    public int offset(long row, long element) {
        return (int) ((row * rowElements + element) * dtype.byteWidth());
    }

    /** Marks element {@code element} of row {@code row} null. */
    public void setNull(long row, long element) {
        long elements = shape.elements();
        if (validity == null) {
            validity = new byte[(int) ((elements + 7) / 8)];
            Arrays.fill(validity, (byte) 0xFF);
        }
        long at = row * rowElements + element;
        validity[(int) (at >>> 3)] &= (byte) ~(1 << (at & 7));
    }

    SourceTensor toTensor() {
        return SourceTensor.fixedWidth(dtype, shape, values, validity);
    }
}
