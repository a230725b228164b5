package dev.tensorbroadcast.arrowio.format.npy;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.arrowio.format.Utf8;
import dev.tensorbroadcast.planner.Shape;

/** Fixed-width numpy strings ({@code U<n>} UTF-32 and {@code S<n>} bytes) to a UTF-8 string tensor. */
final class NpyStrings {
    private NpyStrings() {}

    /** {@code U<n>}: UTF-32 code units; trailing NULs are padding, as numpy strips them. */
    static SourceTensor unicode(String name, String descr, Shape shape, byte[] raw, int itemSize, boolean bigEndian) {
        int count = (int) shape.elements();
        int units = itemSize / 4;
        int[] offsets = new int[count + 1];
        // pass 1: validate and size; the UTF-8 form is never longer than UTF-32, so the total fits an int
        int total = 0;
        for (int e = 0; e < count; e++) {
            int base = e * itemSize;
            int end = units;
            while (end > 0 && codeUnit(raw, base + (end - 1) * 4, bigEndian) == 0) {
                end--;
            }
            for (int u = 0; u < end; u++) {
                int cp = codeUnit(raw, base + u * 4, bigEndian);
                int length = Utf8.encodedLength(cp);
                if (length < 0) {
                    throw new SourceFormatException(
                            name,
                            "element " + e + " of the " + descr
                                    + " strings holds code point 0x" + String.format("%X", cp)
                                    + ", which is not a Unicode scalar value (a surrogate or above 0x10FFFF)");
                }
                total += length;
            }
            offsets[e + 1] = total;
        }
        byte[] utf8 = new byte[total];
        for (int e = 0; e < count; e++) {
            int base = e * itemSize;
            int at = offsets[e];
            int stop = offsets[e + 1];
            for (int u = 0; at < stop; u++) {
                at = Utf8.encode(codeUnit(raw, base + u * 4, bigEndian), utf8, at);
            }
        }
        return SourceTensor.strings(shape, offsets, utf8, null);
    }

    /** {@code S<n>}: bytes, trailing NULs stripped; they must be UTF-8 because a tensor string is UTF-8 text. */
    static SourceTensor bytes(String name, String descr, Shape shape, byte[] raw, int itemSize) {
        int count = (int) shape.elements();
        int[] offsets = new int[count + 1];
        int total = 0;
        for (int e = 0; e < count; e++) {
            int base = e * itemSize;
            int end = itemSize;
            while (end > 0 && raw[base + end - 1] == 0) {
                end--;
            }
            int bad = Utf8.firstInvalid(raw, base, base + end);
            if (bad >= 0) {
                throw new SourceFormatException(
                        name,
                        "element " + e + " of the " + descr
                                + " byte strings is not valid UTF-8 (byte 0x"
                                + String.format("%02X", raw[bad] & 0xFF) + " at position " + (bad - base)
                                + "); byte strings are read as UTF-8 text");
            }
            total += end;
            offsets[e + 1] = total;
        }
        byte[] utf8 = new byte[total];
        for (int e = 0; e < count; e++) {
            System.arraycopy(raw, e * itemSize, utf8, offsets[e], offsets[e + 1] - offsets[e]);
        }
        return SourceTensor.strings(shape, offsets, utf8, null);
    }

    private static int codeUnit(byte[] b, int at, boolean bigEndian) {
        return bigEndian
                ? ((b[at] & 0xFF) << 24) | ((b[at + 1] & 0xFF) << 16) | ((b[at + 2] & 0xFF) << 8) | (b[at + 3] & 0xFF)
                : (b[at] & 0xFF) | ((b[at + 1] & 0xFF) << 8) | ((b[at + 2] & 0xFF) << 16) | ((b[at + 3] & 0xFF) << 24);
    }
}
