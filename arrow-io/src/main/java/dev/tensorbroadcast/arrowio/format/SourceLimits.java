package dev.tensorbroadcast.arrowio.format;

/**
 * How much heap a reader may use to hold one source: the source tensor plus the transient copies a reader needs to
 * build it (a Fortran-order transpose, the raw bytes of a string column, the bytes of an Arrow file). Sources are
 * broadcast to every executor, so they are meant to be small; the limit turns a huge or lying file into a clear error
 * instead of an {@link OutOfMemoryError}.
 *
 * @param maxHeapBytes the most bytes a reader holds at once, from 1 to {@value #MAX_HEAP_BYTES}
 */
public record SourceLimits(long maxHeapBytes) {
    /** One GiB. */
    public static final long DEFAULT_MAX_HEAP_BYTES = 1L << 30;
    /** Java arrays hold fewer than 2^31 elements. */
    public static final long MAX_HEAP_BYTES = Integer.MAX_VALUE - 8;

    public SourceLimits {
        if (maxHeapBytes < 1 || maxHeapBytes > MAX_HEAP_BYTES) {
            throw new IllegalArgumentException(
                    "maxHeapBytes must be from 1 to " + MAX_HEAP_BYTES + ", not " + maxHeapBytes);
        }
    }

    public static SourceLimits defaults() {
        return new SourceLimits(DEFAULT_MAX_HEAP_BYTES);
    }

    /** Rejects a read that would hold {@code bytes} at once; {@code what} says what they are. */
    public void check(String name, long bytes, String what) {
        if (bytes > maxHeapBytes) {
            throw new SourceFormatException(
                    name,
                    what + " need " + bytes + " bytes of heap, more than the limit of " + maxHeapBytes
                            + " bytes for a source");
        }
    }
}
