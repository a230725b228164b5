package dev.tensorbroadcast.arrowio.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import org.apache.hadoop.fs.FSDataInputStream;

/** A read-only seekable channel over a Hadoop stream, which is what Arrow's file reader needs to find the footer. */
public final class HadoopChannel implements SeekableByteChannel {
    private final FSDataInputStream in;
    private final long size;
    private final byte[] scratch = new byte[64 << 10];
    private boolean open = true;

    public HadoopChannel(FSDataInputStream in, long size) {
        this.in = in;
        this.size = size;
    }

    @Override
    public int read(ByteBuffer target) throws IOException {
        int wanted = target.remaining();
        if (wanted == 0) {
            return 0;
        }
        int read;
        if (target.hasArray()) {
            read = in.read(target.array(), target.arrayOffset() + target.position(), wanted);
            if (read > 0) {
                target.position(target.position() + read);
            }
        } else {
            read = in.read(scratch, 0, Math.min(wanted, scratch.length));
            if (read > 0) {
                target.put(scratch, 0, read);
            }
        }
        return read;
    }

    @Override
    public int write(ByteBuffer source) {
        throw new NonWritableChannelException();
    }

    @Override
    public long position() throws IOException {
        return in.getPos();
    }

    @Override
    public SeekableByteChannel position(long position) throws IOException {
        in.seek(position);
        return this;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public SeekableByteChannel truncate(long length) {
        throw new NonWritableChannelException();
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() throws IOException {
        open = false;
        in.close();
    }
}
