package dev.tensorbroadcast.arrowio;

import dev.tensorbroadcast.planner.CopySink;
import org.apache.arrow.memory.util.MemoryUtil;

/** The second pass over a string range: copies the UTF-8 bytes to where the first pass's offsets put them. */
final class StringDataSink implements CopySink {
    private final byte[] source;
    private final int[] sourceOffsets;
    private long offsets;
    private long data;

    StringDataSink(byte[] source, int[] sourceOffsets) {
        this.source = source;
        this.sourceOffsets = sourceOffsets;
    }

    void target(long offsetsAddress, long dataAddress) {
        this.offsets = offsetsAddress;
        this.data = dataAddress;
    }

    @Override
    public void copy(long sourceOffset, long targetOffset, long length) {
        int from = sourceOffsets[(int) sourceOffset];
        int to = sourceOffsets[(int) (sourceOffset + length)];
        Bytes.copy(source, from, data + MemoryUtil.getInt(offsets + (targetOffset << 2)), to - from);
    }

    @Override
    public void repeat(long targetOffset, long blockLength, long times) {
        int start = MemoryUtil.getInt(offsets + (targetOffset << 2));
        int blockBytes = MemoryUtil.getInt(offsets + ((targetOffset + blockLength) << 2)) - start;
        if (blockBytes > 0) {
            Bytes.repeat(data + start, blockBytes, times);
        }
    }
}
