package dev.tensorbroadcast.arrowio.format;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.util.Arrays;

/**
 * The heap tensor a slice of dataset rows is read into: fixed-width little-endian values, and a validity bitmap made
 * only when an element is null. {@code bool} values (an array's, read by {@code source.ArrayRows}) take one byte each
 * here and are packed to bits, as a tensor holds them, when the slice is done.
 */
public final class SliceBuffer {
    private final DType dtype;
    private final Shape shape;
    private final long rowElements;
    private final long innerLength;
    private final int width;
    private final byte[] values;
    private byte[] validity;

    public SliceBuffer(String location, DType dtype, Shape rowShape, long rows) {
        this.dtype = dtype;
        long[] row = rowShape.dims();
        long[] dims = new long[row.length + 1];
        dims[0] = rows;
        System.arraycopy(row, 0, dims, 1, row.length);
        this.shape = Shape.of(dims);
        this.rowElements = rowShape.elements();
        this.innerLength = rowShape.rank() == 0 ? 1 : rowShape.dim(rowShape.rank() - 1);
        this.width = dtype == DType.BOOL ? 1 : dtype.byteWidth();
        long bytes = shape.elements() * width;
        if (shape.elements() > SourceLimits.MAX_HEAP_BYTES || bytes > SourceLimits.MAX_HEAP_BYTES) {
            throw new SourceFormatException(
                    location,
                    rows + " rows of " + rowShape.toList() + " " + dtype.typeName() + " need " + bytes
                            + " bytes, more than one task holds on its heap; use more partitions");
        }
        this.values = new byte[(int) bytes];
    }

    public DType dtype() {
        return dtype;
    }

    public int width() {
        return width;
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
        return (int) ((row * rowElements + element) * width);
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

    public SourceTensor toTensor() {
        if (dtype == DType.BOOL) {
            return SourceTensor.fixedWidth(
                    dtype, shape, Layouts.packBits(values, Math.toIntExact(shape.elements())), validity);
        }
        return SourceTensor.fixedWidth(dtype, shape, values, validity);
    }
}
