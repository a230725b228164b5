package dev.tensorbroadcast.arrowio;

import dev.tensorbroadcast.planner.CopySink;

/** Copies fixed-width elements from a heap source into native memory; one instance is retargeted per batch. */
final class FixedWidthSink implements CopySink {
    private final byte[] source;
    private final int width;
    private long target;

    FixedWidthSink(byte[] source, int width) {
        this.source = source;
        this.width = width;
    }

    void target(long address) {
        this.target = address;
    }

    @Override
    public void copy(long sourceOffset, long targetOffset, long length) {
        Bytes.copy(source, sourceOffset * width, target + targetOffset * width, length * width);
    }

    @Override
    public void repeat(long targetOffset, long blockLength, long times) {
        Bytes.repeat(target + targetOffset * width, blockLength * width, times);
    }
}
