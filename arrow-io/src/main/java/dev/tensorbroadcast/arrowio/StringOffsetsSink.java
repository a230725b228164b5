package dev.tensorbroadcast.arrowio;

import dev.tensorbroadcast.planner.CopySink;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * The first pass over a string range: writes the output's int32 offsets (offset 0 must already be 0). The program
 * emits operations in target order, so {@code offsets[targetOffset]} is always written when an operation starts.
 */
final class StringOffsetsSink implements CopySink {
    private final int[] sourceOffsets;
    private long target;

    StringOffsetsSink(int[] sourceOffsets) {
        this.sourceOffsets = sourceOffsets;
    }

    void target(long address) {
        this.target = address;
    }

    @Override
    public void copy(long sourceOffset, long targetOffset, long length) {
        int from = (int) sourceOffset;
        long base = MemoryUtil.getInt(target + (targetOffset << 2)) - (long) sourceOffsets[from];
        checkFits(base + sourceOffsets[from + (int) length]);
        long at = target + ((targetOffset + 1) << 2);
        for (int i = from + 1, end = from + (int) length; i <= end; i++, at += 4) {
            MemoryUtil.putInt(at, (int) (base + sourceOffsets[i]));
        }
    }

    @Override
    public void repeat(long targetOffset, long blockLength, long times) {
        long first = target + (targetOffset << 2);
        int start = MemoryUtil.getInt(first);
        int blockBytes = MemoryUtil.getInt(first + (blockLength << 2)) - start;
        checkFits(start + (long) blockBytes * times);
        long end = first + ((blockLength * times + 1) << 2);
        long step = blockLength << 2;
        for (long at = first + step + 4; at < end; at += 4) {
            MemoryUtil.putInt(at, MemoryUtil.getInt(at - step) + blockBytes);
        }
    }

    private static void checkFits(long bytes) {
        if (bytes > Integer.MAX_VALUE) {
            throw new IllegalStateException(
                    "a batch of strings holds at most " + Integer.MAX_VALUE + " bytes; this one needs " + bytes);
        }
    }
}
