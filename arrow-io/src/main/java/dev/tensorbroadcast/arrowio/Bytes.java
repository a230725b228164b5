package dev.tensorbroadcast.arrowio;

import org.apache.arrow.memory.util.MemoryUtil;

/** Bulk byte operations in native memory for the kernel's sinks. Addresses are not checked: callers check once. */
final class Bytes {
    /** Below this many bytes a repeated block is first spread with 8-byte stores, not doubled with memcpy calls. */
    private static final long PATTERN_LIMIT = 8;
    /** A pattern is stored up to this many bytes; the rest doubles with memcpy, which stores wider than 8 bytes. */
    private static final long PATTERN_BYTES = 512;

    private Bytes() {}

    /** Copies {@code length} bytes of a heap array to native memory; small copies avoid the memcpy call. */
    static void copy(byte[] source, long sourceIndex, long target, long length) {
        if (length == 4) {
            MemoryUtil.putInt(target, MemoryUtil.getInt(source, (int) sourceIndex));
        } else if (length == 8) {
            MemoryUtil.putLong(target, MemoryUtil.getLong(source, (int) sourceIndex));
        } else if (length == 2) {
            MemoryUtil.putShort(
                    target, (short) ((source[(int) sourceIndex] & 0xFF) | (source[(int) sourceIndex + 1] << 8)));
        } else if (length == 1) {
            MemoryUtil.putByte(target, source[(int) sourceIndex]);
        } else if (length > 0) {
            MemoryUtil.copyToMemory(source, sourceIndex, target, length);
        }
    }

    /**
     * The {@code block} bytes at {@code address} are written; repeats them so that they appear {@code times} times in
     * a row. Blocks of 1, 2, 4 or 8 bytes are first spread as an 8-byte pattern over up to 512 bytes; then the written
     * part doubles with each copy, so a block of any size costs about log2(times) memcpy calls.
     */
    static void repeat(long address, long block, long times) {
        long total = block * times;
        if (block <= PATTERN_LIMIT && (PATTERN_LIMIT % block) == 0) {
            long pattern = pattern(address, (int) block);
            long patterned = Math.min(total, PATTERN_BYTES);
            long end = address + patterned;
            // starting at the block itself rewrites its bytes unchanged and keeps the stores in step with the pattern
            long at = address;
            for (; at + 8 <= end; at += 8) {
                MemoryUtil.putLong(at, pattern);
            }
            for (; at < end; at++) {
                MemoryUtil.putByte(at, (byte) (pattern >>> (((at - address) & 7) << 3)));
            }
            grow(address, patterned, total);
            return;
        }
        grow(address, block, total);
    }

    /** Grows the written prefix {@code [0, filled)} to {@code [0, total)} by copying it after itself. */
    private static void grow(long address, long filled, long total) {
        while (filled < total) {
            long length = Math.min(filled, total - filled);
            MemoryUtil.copyMemory(address, address + filled, length);
            filled += length;
        }
    }

    private static long pattern(long address, int block) {
        return switch (block) {
            case 1 -> (MemoryUtil.getByte(address) & 0xFFL) * 0x0101010101010101L;
            case 2 -> (MemoryUtil.getShort(address) & 0xFFFFL) * 0x0001000100010001L;
            case 4 -> (MemoryUtil.getInt(address) & 0xFFFFFFFFL) * 0x0000000100000001L;
            default -> MemoryUtil.getLong(address);
        };
    }
}
