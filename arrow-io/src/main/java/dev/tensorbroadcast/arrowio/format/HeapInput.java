package dev.tensorbroadcast.arrowio.format;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/** Reads a counted number of bytes onto the heap without trusting the count before the bytes exist. */
public final class HeapInput {
    private static final int FIRST_CHUNK = 1 << 20;

    private HeapInput() {}

    /**
     * Reads up to {@code count} bytes. When {@code preallocate} is false (the stream's length is unknown, so the count
     * is only a claim), the buffer grows as bytes arrive, so a stream that ends early never costs a huge allocation.
     *
     * @return exactly the bytes read: shorter than {@code count} when the stream ended first
     */
    public static byte[] read(InputStream in, int count, boolean preallocate) throws IOException {
        byte[] buffer = new byte[preallocate ? count : Math.min(count, FIRST_CHUNK)];
        int filled = 0;
        while (filled < count) {
            if (filled == buffer.length) {
                buffer = Arrays.copyOf(buffer, (int) Math.min(count, 2L * buffer.length));
            }
            int n = in.read(buffer, filled, buffer.length - filled);
            if (n < 0) {
                return Arrays.copyOf(buffer, filled);
            }
            filled += n;
        }
        return buffer;
    }

    /** Counts the bytes left in the stream, stopping once more than {@code limit} are seen. */
    public static long remaining(InputStream in, long limit) throws IOException {
        byte[] skip = new byte[8192];
        long seen = 0;
        int n;
        while (seen <= limit && (n = in.read(skip)) >= 0) {
            seen += n;
        }
        return seen;
    }
}
