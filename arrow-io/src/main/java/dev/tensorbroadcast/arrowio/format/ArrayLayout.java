package dev.tensorbroadcast.arrowio.format;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;

/**
 * How an N-d array is cut into objects: its shape and dtype, the chunk shape, the shard shape (empty when not
 * sharded; each dim a multiple of the chunk's), the compression of each chunk (the request's {@link Compression}
 * as it is, which the writer encodes with: {@code none}, {@code zstd} or {@code gzip}, level 0 for the codec's
 * default), and the names of the dims (empty when not given, else one per dim).
 */
@SuppressWarnings("ArrayRecordComponent") // copied in and out, and compared by content in equals and hashCode
public record ArrayLayout(
        Shape shape, DType dtype, long[] chunks, long[] shard, Compression compression, List<String> dimensionNames)
        implements Serializable {
    public ArrayLayout {
        requireNonNull(shape, "shape is null");
        requireNonNull(dtype, "dtype is null");
        requireNonNull(compression, "compression is null");
        dimensionNames = List.copyOf(requireNonNull(dimensionNames, "dimensionNames is null"));
        if (!dimensionNames.isEmpty() && dimensionNames.size() != shape.rank()) {
            throw new IllegalArgumentException("dimension names " + dimensionNames + " for shape " + shape);
        }
        chunks = chunks.clone();
        shard = shard.clone();
        if (chunks.length != shape.rank()) {
            throw new IllegalArgumentException("chunks " + Arrays.toString(chunks) + " for shape " + shape);
        }
        for (int i = 0; i < chunks.length; i++) {
            if (chunks[i] < 1) {
                throw new IllegalArgumentException("chunks " + Arrays.toString(chunks) + " must be positive");
            }
            if (shard.length != 0 && (shard[i] < 1 || shard[i] % chunks[i] != 0)) {
                throw new IllegalArgumentException(
                        "shard " + Arrays.toString(shard) + " is not a multiple of chunks " + Arrays.toString(chunks));
            }
        }
        if (shard.length != 0 && shard.length != chunks.length) {
            throw new IllegalArgumentException("shard " + Arrays.toString(shard) + " for shape " + shape);
        }
    }

    /** A layout without dimension names. */
    public ArrayLayout(Shape shape, DType dtype, long[] chunks, long[] shard, Compression compression) {
        this(shape, dtype, chunks, shard, compression, List.of());
    }

    public boolean sharded() {
        return shard.length != 0;
    }

    /** The shape of one object: the shard's when sharded, else the chunk's. */
    public long[] block() {
        return sharded() ? shard.clone() : chunks.clone();
    }

    @Override
    public long[] chunks() {
        return chunks.clone();
    }

    @Override
    public long[] shard() {
        return shard.clone();
    }

    /** The bytes of one decoded chunk: one byte per {@code bool}. */
    public long chunkBytes() {
        long elements = 1;
        for (long dim : chunks) {
            elements = Math.multiplyExact(elements, dim);
        }
        return Math.multiplyExact(elements, storedBytes(dtype));
    }

    /** The bytes one element takes in a chunk: {@code bool} one byte, others their width. */
    public static int storedBytes(DType dtype) {
        return dtype == DType.BOOL ? 1 : dtype.byteWidth();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ArrayLayout that
                && shape.equals(that.shape)
                && dtype == that.dtype
                && Arrays.equals(chunks, that.chunks)
                && Arrays.equals(shard, that.shard)
                && compression.equals(that.compression)
                && dimensionNames.equals(that.dimensionNames);
    }

    @Override
    public int hashCode() {
        return shape.hashCode() * 31 + Arrays.hashCode(chunks) * 7 + Arrays.hashCode(shard);
    }

    @Override
    public String toString() {
        return "ArrayLayout[" + shape + " " + dtype + " chunks " + Arrays.toString(chunks) + " shard "
                + Arrays.toString(shard) + " " + compression
                + (dimensionNames.isEmpty() ? "" : " " + dimensionNames) + "]";
    }
}
