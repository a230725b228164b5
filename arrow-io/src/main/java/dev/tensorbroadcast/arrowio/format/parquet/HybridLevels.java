package dev.tensorbroadcast.arrowio.format.parquet;

import java.nio.ByteBuffer;

/**
 * Parquet's RLE / bit-packing hybrid encoding, decoded a run at a time into an int array: repetition and definition
 * levels, and dictionary indexes. A run of equal values is one fill; a bit-packed group of 8 is unpacked from its
 * bytes without a call per value.
 */
final class HybridLevels {
    private HybridLevels() {}

    /** The bits of a value up to {@code max}: what the encoding packs each into. */
    static int bitWidth(int max) {
        return 32 - Integer.numberOfLeadingZeros(max);
    }

    /**
     * Decodes {@code count} values of {@code bitWidth} bits from {@code in} (advanced past what it read) into
     * {@code out} from index 0. A bit width of 0 encodes only zeros and reads nothing.
     */
    static void decode(ByteBuffer in, int bitWidth, int[] out, int count) {
        if (bitWidth == 0) {
            java.util.Arrays.fill(out, 0, count, 0);
            return;
        }
        int byteWidth = (bitWidth + 7) / 8;
        long mask = (1L << bitWidth) - 1;
        int n = 0;
        while (n < count) {
            int header = readVarInt(in);
            if ((header & 1) == 0) {
                int run = header >>> 1;
                int value = 0;
                for (int b = 0; b < byteWidth; b++) {
                    value |= (in.get() & 0xFF) << (8 * b);
                }
                int end = Math.min(count, n + run);
                java.util.Arrays.fill(out, n, end, value);
                n = end;
            } else {
                int values = (header >>> 1) * 8;
                int bytes = values * bitWidth / 8;
                int start = in.position();
                // values are packed from the least significant bit of the first byte on
                long buffer = 0;
                int bits = 0;
                int read = 0;
                for (int v = 0; v < values; v++) {
                    while (bits < bitWidth) {
                        buffer |= (long) (in.get(start + read++) & 0xFF) << bits;
                        bits += 8;
                    }
                    if (n + v < count) {
                        out[n + v] = (int) (buffer & mask);
                    }
                    buffer >>>= bitWidth;
                    bits -= bitWidth;
                }
                in.position(start + bytes);
                n += values;
            }
        }
    }

    private static int readVarInt(ByteBuffer in) {
        int value = 0;
        int shift = 0;
        while (true) {
            int b = in.get() & 0xFF;
            value |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
            shift += 7;
            if (shift > 28) {
                throw new IllegalStateException("a run header is longer than 5 bytes");
            }
        }
    }
}
