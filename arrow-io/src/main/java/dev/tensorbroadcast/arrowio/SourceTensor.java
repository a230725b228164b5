package dev.tensorbroadcast.arrowio;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.channels.FileChannel;

/**
 * A source tensor held on the heap in Arrow's memory layout, row-major: what a reader produces and what the driver
 * ships to every executor (it is serializable). Layout of {@link #values()}:
 * <ul>
 *   <li>fixed-width types: {@code elements * byteWidth} little-endian bytes (complex: real then imaginary part);</li>
 *   <li>{@code bool}: bit-packed, least significant bit first, as an Arrow {@code Bit} buffer;</li>
 *   <li>{@code string}: the UTF-8 bytes of all elements back to back, delimited by {@link #offsets()}.</li>
 * </ul>
 * {@link #validity()} is an Arrow validity bitmap (1 = present), or null when no element is null.
 *
 * <p>A tensor of fixed-width values without nulls may instead be held in a file ({@link #inFile}), read by the kernel
 * a window at a time: a sink task's rows spilled to its local disk, which its heap could not hold. Such a tensor has
 * no {@link #values()}, and stays in the process that holds the file: it is never shipped.
 */
public final class SourceTensor implements Serializable {
    private static final long serialVersionUID = 1L;

    private final DType dtype;
    private final Shape shape;
    private final byte[] values;
    private final int[] offsets;
    private final byte[] validity;
    /** The file of the values of a tensor {@link #inFile}, or null for one on the heap. */
    private final transient FileChannel file;

    private SourceTensor(DType dtype, Shape shape, FileChannel file) {
        this.dtype = requireNonNull(dtype, "dtype is null");
        this.shape = requireNonNull(shape, "shape is null");
        this.file = requireNonNull(file, "file is null");
        this.values = null;
        this.offsets = null;
        this.validity = null;
    }

    private SourceTensor(DType dtype, Shape shape, byte[] values, int[] offsets, byte[] validity) {
        this.dtype = requireNonNull(dtype, "dtype is null");
        this.shape = requireNonNull(shape, "shape is null");
        this.values = requireNonNull(values, "values is null");
        this.offsets = offsets;
        this.validity = validity;
        this.file = null;
        long elements = shape.elements();
        if (elements > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a heap source holds fewer than 2^31 elements, not " + elements);
        }
        if (dtype == DType.STRING) {
            requireNonNull(offsets, "offsets is null");
            if (offsets.length != elements + 1 || offsets[0] != 0 || offsets[(int) elements] != values.length) {
                throw new IllegalArgumentException(
                        "string offsets do not match " + elements + " elements of " + values.length + " bytes");
            }
        } else {
            if (offsets != null) {
                throw new IllegalArgumentException(dtype + " has no offsets");
            }
            long expected = dtype == DType.BOOL ? (elements + 7) / 8 : elements * dtype.byteWidth();
            if (values.length != expected) {
                throw new IllegalArgumentException(
                        dtype + " " + shape + " needs " + expected + " value bytes, not " + values.length);
            }
        }
        if (validity != null && validity.length != (elements + 7) / 8) {
            throw new IllegalArgumentException(
                    "validity of " + validity.length + " bytes for " + elements + " elements");
        }
    }

    /** A tensor of a fixed-width type (bool included); {@code validity} may be null. The arrays are not copied. */
    public static SourceTensor fixedWidth(DType dtype, Shape shape, byte[] values, byte[] validity) {
        if (dtype == DType.STRING) {
            throw new IllegalArgumentException("use strings() for string tensors");
        }
        return new SourceTensor(dtype, shape, values, null, validity);
    }

    /**
     * A tensor of a fixed-width type other than bool, without nulls, whose {@code elements * byteWidth}
     * little-endian values are the first bytes of {@code file}, open for reading; the caller closes it after the
     * kernels reading it are done.
     */
    public static SourceTensor inFile(DType dtype, Shape shape, FileChannel file) throws IOException {
        requireNonNull(dtype, "dtype is null");
        requireNonNull(shape, "shape is null");
        requireNonNull(file, "file is null");
        if (!dtype.isFixedWidth() || dtype == DType.BOOL) {
            throw new IllegalArgumentException("a source in a file holds fixed-width values, not " + dtype);
        }
        long bytes = Math.multiplyExact(shape.elements(), (long) dtype.byteWidth());
        if (file.size() < bytes) {
            throw new IllegalArgumentException(
                    dtype + " " + shape + " needs " + bytes + " value bytes; the file holds " + file.size());
        }
        return new SourceTensor(dtype, shape, file);
    }

    /** A string tensor: element {@code i} is {@code utf8[offsets[i], offsets[i+1])}. The arrays are not copied. */
    public static SourceTensor strings(Shape shape, int[] offsets, byte[] utf8, byte[] validity) {
        return new SourceTensor(DType.STRING, shape, utf8, offsets, validity);
    }

    public DType dtype() {
        return dtype;
    }

    public Shape shape() {
        return shape;
    }

    public long elements() {
        return shape.elements();
    }

    /** The value bytes; shared, not copied: callers must not modify them. A tensor {@link #inFile} has none. */
    public byte[] values() {
        if (file != null) {
            throw new IllegalStateException("the values of " + this + " are in a file");
        }
        return values;
    }

    /** The file that holds the values of a tensor {@link #inFile}, or null for one on the heap. */
    FileChannel file() {
        return file;
    }

    /** String offsets ({@code elements + 1} of them), or null for other types. Shared, not copied. */
    public int[] offsets() {
        return offsets;
    }

    /** The validity bitmap, or null when every element is present. Shared, not copied. */
    public byte[] validity() {
        return validity;
    }

    /**
     * Bits per element for sizing partitions: the dtype's width, or for strings a 4-byte offset plus this tensor's
     * average string length in bytes (rounded up), which a broadcast repeats.
     */
    public long sizingBits() {
        if (dtype != DType.STRING) {
            return dtype.sizingBits();
        }
        long elements = elements();
        long averageBytes = elements == 0 ? 0 : (values.length + elements - 1) / elements;
        return 8 * (4 + averageBytes);
    }

    /** A tensor in a file is its task's own: shipping it would ship a file name, not its values. */
    private void writeObject(ObjectOutputStream out) throws IOException {
        if (file != null) {
            throw new NotSerializableException("a source tensor in a file stays in its process");
        }
        out.defaultWriteObject();
    }

    public boolean hasNulls() {
        return validity != null;
    }

    public boolean isValid(long index) {
        return validity == null || Bits.get(validity, index);
    }

    @Override
    public String toString() {
        return dtype + shape.toString() + (validity != null ? " with nulls" : "") + (file != null ? " in a file" : "");
    }
}
