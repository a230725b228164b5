package dev.tensorbroadcast.arrowio.format;

/** UTF-8 checks and encoding without going through {@code char}s. */
public final class Utf8 {
    private Utf8() {}

    /**
     * The length of the well-formed UTF-8 sequence at {@code from}, or -1 when the bytes there are not well-formed
     * (overlong forms, surrogates, code points above U+10FFFF and truncated sequences are all rejected).
     */
    private static int sequenceLength(byte[] b, int from, int to) {
        int b0 = b[from] & 0xFF;
        if (b0 < 0x80) {
            return 1;
        }
        int length;
        int min;
        int max = 0xBF;
        if (b0 >= 0xC2 && b0 <= 0xDF) {
            length = 2;
            min = 0x80;
        } else if (b0 >= 0xE0 && b0 <= 0xEF) {
            length = 3;
            min = b0 == 0xE0 ? 0xA0 : 0x80;
            max = b0 == 0xED ? 0x9F : 0xBF;
        } else if (b0 >= 0xF0 && b0 <= 0xF4) {
            length = 4;
            min = b0 == 0xF0 ? 0x90 : 0x80;
            max = b0 == 0xF4 ? 0x8F : 0xBF;
        } else {
            return -1;
        }
        if (to - from < length) {
            return -1;
        }
        int b1 = b[from + 1] & 0xFF;
        if (b1 < min || b1 > max) {
            return -1;
        }
        for (int i = 2; i < length; i++) {
            int bi = b[from + i] & 0xFF;
            if (bi < 0x80 || bi > 0xBF) {
                return -1;
            }
        }
        return length;
    }

    /** The offset of the first byte in {@code [from, to)} that starts no well-formed sequence, or -1 if none. */
    public static int firstInvalid(byte[] b, int from, int to) {
        int at = from;
        while (at < to) {
            int length = sequenceLength(b, at, to);
            if (length < 0) {
                return at;
            }
            at += length;
        }
        return -1;
    }

    /** The UTF-8 length of a Unicode scalar value, or -1 for a surrogate or a value above U+10FFFF. */
    public static int encodedLength(int codePoint) {
        if (codePoint >= 0 && codePoint < 0x80) {
            return 1;
        }
        if (codePoint >= 0x80 && codePoint < 0x800) {
            return 2;
        }
        if (codePoint >= 0x800 && codePoint < 0x10000) {
            return codePoint >= 0xD800 && codePoint <= 0xDFFF ? -1 : 3;
        }
        return codePoint >= 0x10000 && codePoint <= 0x10FFFF ? 4 : -1;
    }

    /** Writes a valid scalar value at {@code at}; returns the offset after it. */
    public static int encode(int cp, byte[] out, int at) {
        if (cp < 0x80) {
            out[at] = (byte) cp;
            return at + 1;
        }
        if (cp < 0x800) {
            out[at] = (byte) (0xC0 | cp >>> 6);
            out[at + 1] = (byte) (0x80 | (cp & 0x3F));
            return at + 2;
        }
        if (cp < 0x10000) {
            out[at] = (byte) (0xE0 | cp >>> 12);
            out[at + 1] = (byte) (0x80 | ((cp >>> 6) & 0x3F));
            out[at + 2] = (byte) (0x80 | (cp & 0x3F));
            return at + 3;
        }
        out[at] = (byte) (0xF0 | cp >>> 18);
        out[at + 1] = (byte) (0x80 | ((cp >>> 12) & 0x3F));
        out[at + 2] = (byte) (0x80 | ((cp >>> 6) & 0x3F));
        out[at + 3] = (byte) (0x80 | (cp & 0x3F));
        return at + 4;
    }
}
