package dev.tensorbroadcast.job.sink;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.job.base.Crc32c;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.zip.CRC32C;

/**
 * The channel form of {@link ChecksumOutputStream}: counts and checksums the bytes a writer passes through it. Arrow's
 * writer hands it direct buffers, which go to the file channel in slices without a copy through a heap array, and
 * CRC-32C reads each slice in place right after it was written.
 */
public final class ChecksumChannel implements WritableByteChannel {
    /**
     * Writes of whole 32 MiB batch buffers cost about 6x the system time of 256 KiB slices (1 GiB to a local file:
     * 1.6 s against 0.26 s CPU; a stream copying through 8 KiB heap arrays took 0.33 s).
     */
    private static final int SLICE_BYTES = 256 << 10;

    private final WritableByteChannel out;
    private final CRC32C crc = new CRC32C();
    private long bytes;

    public ChecksumChannel(WritableByteChannel out) {
        this.out = requireNonNull(out, "out is null");
    }

    @Override
    public int write(ByteBuffer source) throws IOException {
        int start = source.position();
        int end = source.limit();
        while (source.position() < end) {
            // a slice at a time, checksummed while the write has just brought it into the cache
            int from = source.position();
            source.limit((int) Math.min(end, (long) from + SLICE_BYTES));
            ByteBuffer slice = source.duplicate();
            out.write(source);
            slice.limit(source.position());
            crc.update(slice);
            source.limit(end);
        }
        bytes += end - start;
        return end - start;
    }

    @Override
    public boolean isOpen() {
        return out.isOpen();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }

    public long bytes() {
        return bytes;
    }

    /** The checksum as the manifest writes it: 8 lowercase hex digits. */
    public String crc32c() {
        return Crc32c.hex(crc.getValue());
    }
}
