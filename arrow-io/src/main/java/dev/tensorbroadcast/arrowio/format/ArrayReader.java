package dev.tensorbroadcast.arrowio.format;

import java.io.IOException;

/** An array opened for reading by its {@link ArrayFileFormat}. */
public interface ArrayReader {
    /** How the array is laid out, from its metadata. */
    ArrayLayout layout();

    /**
     * The elements of {@code [first, first + count)} along the first dim, every other dim whole, in C order, one
     * little-endian value each ({@code bool} one byte each); positions of missing chunks read as the fill value.
     */
    byte[] readSlab(long first, long count) throws IOException;

    /**
     * {@link #readSlab} into {@code into} from byte {@code offset} on, without a slab of its own: what a task reading
     * its rows of a large array holds is its rows and one decoded chunk.
     */
    default void readRows(long first, long count, byte[] into, int offset) throws IOException {
        byte[] slab = readSlab(first, count);
        System.arraycopy(slab, 0, into, offset, slab.length);
    }

    /** Every object key the metadata's chunk grid names, whether present or not, in C order. */
    java.util.List<String> blockKeys();
}
