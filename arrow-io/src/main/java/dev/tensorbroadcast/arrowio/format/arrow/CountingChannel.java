package dev.tensorbroadcast.arrowio.format.arrow;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/** Counts the bytes written through to another channel; closing it does not close the other channel. */
final class CountingChannel implements WritableByteChannel {
    private final WritableByteChannel out;
    private long bytes;
    private boolean open = true;

    CountingChannel(WritableByteChannel out) {
        this.out = out;
    }

    long bytes() {
        return bytes;
    }

    @Override
    public int write(ByteBuffer source) throws IOException {
        int written = out.write(source);
        bytes += written;
        return written;
    }

    @Override
    public boolean isOpen() {
        return open && out.isOpen();
    }

    @Override
    public void close() {
        open = false;
    }
}
