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

    /** Every object key the metadata's chunk grid names, whether present or not, in C order. */
    java.util.List<String> blockKeys();
}
