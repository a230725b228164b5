package dev.tensorbroadcast.arrowio.parquet;

import java.util.Arrays;

/**
 * Writes repetition or definition levels in Parquet's RLE/bit-packing hybrid encoding, using RLE runs only. Levels
 * of tensor rows are long runs (a row of n values has rep levels 0 then n-1 ones), so callers add whole runs, never
 * one level at a time. The buffer is reused from page to page.
 */
final class RleRuns {
    private final int valueBytes;
    private byte[] bytes = new byte[256];
    private int size;
    private int runValue = -1;
    private long runLength;
    private long levels;

    /** @param maxLevel the highest level that will be written; it sets the bit width, hence the value width */
    RleRuns(int maxLevel) {
        int bitWidth = 32 - Integer.numberOfLeadingZeros(maxLevel);
        this.valueBytes = (bitWidth + 7) / 8;
    }

    void reset() {
        size = 0;
        runValue = -1;
        runLength = 0;
        levels = 0;
    }

    /** Appends {@code count} copies of {@code level}. */
    void add(int level, long count) {
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

    /** The encoded levels with the 4-byte little-endian length prefix a v1 data page expects. */
    byte[] finishWithLength() {
        flush();
        byte[] out = new byte[size + 4];
        out[0] = (byte) size;
        out[1] = (byte) (size >>> 8);
        out[2] = (byte) (size >>> 16);
        out[3] = (byte) (size >>> 24);
        System.arraycopy(bytes, 0, out, 4, size);
        return out;
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
