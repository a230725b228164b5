package dev.tensorbroadcast.arrowio;

import dev.tensorbroadcast.planner.CopySink;

/** Copies bits (bool values or validity) from a heap bitmap into a native bitmap; retargeted per batch. */
final class BitSink implements CopySink {
    private final byte[] source;
    private long target;

    BitSink(byte[] source) {
        this.source = source;
    }

    void target(long address) {
        this.target = address;
    }

    @Override
    public void copy(long sourceOffset, long targetOffset, long length) {
        Bits.copy(source, sourceOffset, target, targetOffset, length);
    }

    @Override
    public void repeat(long targetOffset, long blockLength, long times) {
        Bits.repeat(target, targetOffset, blockLength, times);
    }
}
