package dev.tensorbroadcast.arrowio;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Bulk operations on Arrow bitmaps (least significant bit first) in native memory, with whole bytes or words in the
 * middle and single bits only at the unaligned ends. Addresses and bit positions are not checked: callers check the
 * buffer once per batch. Assumes a little-endian platform, as Arrow Java does.
 */
public final class Bits {
    private Bits() {}

    /** Bit {@code bit} of a heap bitmap. */
    public static boolean get(byte[] bits, long bit) {
        return (bits[(int) (bit >>> 3)] & (1 << (bit & 7))) != 0;
    }

    /** Bit {@code bit} of an Arrow buffer (bounds-checked as Arrow checks {@code getByte}). */
    public static boolean get(ArrowBuf bits, long bit) {
        return (bits.getByte(bit >>> 3) & (1 << (bit & 7))) != 0;
    }

    static boolean get(long address, long bit) {
        return (MemoryUtil.getByte(address + (bit >>> 3)) & (1 << (bit & 7))) != 0;
    }

    static void set(long address, long bit, boolean value) {
        long at = address + (bit >>> 3);
        int mask = 1 << (bit & 7);
        int current = MemoryUtil.getByte(at);
        MemoryUtil.putByte(at, (byte) (value ? current | mask : current & ~mask));
    }

    /** Sets bits {@code [bit, bit + length)} to {@code value}. */
    static void fill(long address, long bit, long length, boolean value) {
        while (length > 0 && (bit & 7) != 0) {
            set(address, bit++, value);
            length--;
        }
        long bytes = length >>> 3;
        if (bytes > 0) {
            MemoryUtil.setMemory(address + (bit >>> 3), bytes, value ? (byte) -1 : 0);
            bit += bytes << 3;
            length -= bytes << 3;
        }
        while (length > 0) {
            set(address, bit++, value);
            length--;
        }
    }

    /** Copies {@code length} bits from a heap bitmap at {@code sourceBit} to native memory at {@code targetBit}. */
    static void copy(byte[] source, long sourceBit, long address, long targetBit, long length) {
        while (length > 0 && (targetBit & 7) != 0) {
            set(address, targetBit++, get(source, sourceBit++));
            length--;
        }
        long bytes = length >>> 3;
        if (bytes > 0) {
            long target = address + (targetBit >>> 3);
            int from = (int) (sourceBit >>> 3);
            int shift = (int) (sourceBit & 7);
            if (shift == 0) {
                MemoryUtil.copyToMemory(source, from, target, bytes);
            } else {
                long i = 0;
                // a word needs 9 source bytes: the 8 under it and the one its top bits come from
                for (; i + 8 <= bytes && from + i + 9 <= source.length; i += 8) {
                    long low = MemoryUtil.getLong(source, (int) (from + i));
                    long high = source[(int) (from + i + 8)] & 0xFFL;
                    MemoryUtil.putLong(target + i, (low >>> shift) | (high << (64 - shift)));
                }
                for (; i < bytes; i++) {
                    int index = (int) (from + i);
                    int low = source[index] & 0xFF;
                    int high = index + 1 < source.length ? source[index + 1] & 0xFF : 0;
                    MemoryUtil.putByte(target + i, (byte) ((low >>> shift) | (high << (8 - shift))));
                }
            }
            sourceBit += bytes << 3;
            targetBit += bytes << 3;
            length -= bytes << 3;
        }
        while (length > 0) {
            set(address, targetBit++, get(source, sourceBit++));
            length--;
        }
    }

    /**
     * Copies {@code length} bits inside one native bitmap from {@code sourceBit} forward to {@code targetBit}, which
     * must not be before {@code sourceBit + length} (the ranges do not overlap, as in a doubling repeat). Reads may
     * touch the byte after the source range, which lies in the bitmap because the target follows it.
     */
    static void copyForward(long address, long sourceBit, long targetBit, long length) {
        while (length > 0 && (targetBit & 7) != 0) {
            set(address, targetBit++, get(address, sourceBit++));
            length--;
        }
        long bytes = length >>> 3;
        if (bytes > 0) {
            long target = address + (targetBit >>> 3);
            long from = address + (sourceBit >>> 3);
            int shift = (int) (sourceBit & 7);
            if (shift == 0) {
                MemoryUtil.copyMemory(from, target, bytes);
            } else {
                long i = 0;
                for (; i + 8 <= bytes; i += 8) {
                    long low = MemoryUtil.getLong(from + i);
                    long high = MemoryUtil.getByte(from + i + 8) & 0xFFL;
                    MemoryUtil.putLong(target + i, (low >>> shift) | (high << (64 - shift)));
                }
                for (; i < bytes; i++) {
                    int low = MemoryUtil.getByte(from + i) & 0xFF;
                    int high = MemoryUtil.getByte(from + i + 1) & 0xFF;
                    MemoryUtil.putByte(target + i, (byte) ((low >>> shift) | (high << (8 - shift))));
                }
            }
            sourceBit += bytes << 3;
            targetBit += bytes << 3;
            length -= bytes << 3;
        }
        while (length > 0) {
            set(address, targetBit++, get(address, sourceBit++));
            length--;
        }
    }

    /** Repeats the {@code block} bits at {@code bit} so that they appear {@code times} times in a row. */
    static void repeat(long address, long bit, long block, long times) {
        if (block == 1) {
            fill(address, bit + 1, times - 1, get(address, bit));
            return;
        }
        long total = block * times;
        long filled = block;
        while (filled < total) {
            long length = Math.min(filled, total - filled);
            copyForward(address, bit, bit + filled, length);
            filled += length;
        }
    }
}
