package dev.tensorbroadcast.arrowio.format.parquet;

import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;

/**
 * Writes repetition or definition levels in Parquet's RLE/bit-packing hybrid encoding, using RLE runs only. Levels
 * of tensor rows are long runs (a row of n values has rep levels 0 then n-1 ones), so callers add whole runs, never
 * one level at a time. The buffer is reused from page to page.
 */
final class RleRuns implements RowLevels.Runs {
    private final int valueBytes;
    /** The v1 data page's length prefix, reserved at the start of the buffer. */
    private static final int LENGTH_BYTES = 4;

    private byte[] bytes = new byte[256];
    private int size = LENGTH_BYTES;
    private int runValue = -1;
    private long runLength;
    private long levels;

    /** @param maxLevel the highest level that will be written; it sets the bit width, hence the value width */
    RleRuns(int maxLevel) {
        int bitWidth = 32 - Integer.numberOfLeadingZeros(maxLevel);
        this.valueBytes = (bitWidth + 7) / 8;
    }

    void reset() {
        size = LENGTH_BYTES;
        runValue = -1;
        runLength = 0;
        levels = 0;
    }

    /** Appends {@code count} copies of {@code level}. */
    @Override
    public void add(int level, long count) {
        if (count <= 0) {
            return;
        }
        levels += count;
        if (level == runValue) {
            runLength += count;
            return;
        }
        flush();
        runValue = level;
        runLength = count;
    }

    long levels() {
        return levels;
    }

    /**
     * The encoded levels with the 4-byte little-endian length prefix a v1 data page expects. The bytes are this
     * object's buffer, not a copy: they are valid until the next {@link #reset}.
     */
    BytesInput finishWithLength() {
        flush();
        int length = size - LENGTH_BYTES;
        bytes[0] = (byte) length;
        bytes[1] = (byte) (length >>> 8);
        bytes[2] = (byte) (length >>> 16);
        bytes[3] = (byte) (length >>> 24);
        return BytesInput.from(bytes, 0, size);
    }

    private void flush() {
        // a run header is a varint of (length << 1); the reader keeps run lengths in an int
        while (runLength > 0) {
            int length = (int) Math.min(runLength, Integer.MAX_VALUE >>> 1);
            ensure(5 + valueBytes);
            int header = length << 1;
            while ((header & ~0x7F) != 0) {
                bytes[size++] = (byte) ((header & 0x7F) | 0x80);
                header >>>= 7;
            }
            bytes[size++] = (byte) header;
            for (int i = 0; i < valueBytes; i++) {
                bytes[size++] = (byte) (runValue >>> (8 * i));
            }
            runLength -= length;
        }
    }

    private void ensure(int extra) {
        if (size + extra > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + extra));
        }
    }
}
