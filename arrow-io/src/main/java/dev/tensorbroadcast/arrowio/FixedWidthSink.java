package dev.tensorbroadcast.arrowio;

import dev.tensorbroadcast.planner.CopySink;

/**
 * Copies fixed-width elements from a heap source (or one in a file) into native memory; one instance is retargeted
 * per batch.
 */
final class FixedWidthSink implements CopySink {
    private final byte[] source;
    /** The values of a source in a file, or null. */
    private final FileValues file;

    private final int width;
    private long target;

    FixedWidthSink(byte[] source, int width) {
        this.source = source;
        this.file = null;
        this.width = width;
    }

    FixedWidthSink(FileValues file, int width) {
        this.source = null;
        this.file = file;
        this.width = width;
    }

    void target(long address) {
        this.target = address;
    }

    @Override
    public void copy(long sourceOffset, long targetOffset, long length) {
        if (file != null) {
            file.copy(sourceOffset * width, target + targetOffset * width, length * width);
        } else {
            Bytes.copy(source, sourceOffset * width, target + targetOffset * width, length * width);
        }
    }

    @Override
    public void repeat(long targetOffset, long blockLength, long times) {
        Bytes.repeat(target + targetOffset * width, blockLength * width, times);
    }
}
