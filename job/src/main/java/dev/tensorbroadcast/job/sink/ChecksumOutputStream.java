package dev.tensorbroadcast.job.sink;

import dev.tensorbroadcast.job.base.Crc32c;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.CRC32C;

/**
 * Counts the bytes written through it and computes their CRC-32C, so a task knows its file's size and checksum
 * without reading the file back. Writers write sequentially, so the stream's checksum is the file's.
 */
public final class ChecksumOutputStream extends FilterOutputStream {
    private final CRC32C crc = new CRC32C();
    private long bytes;

    public ChecksumOutputStream(OutputStream out) {
        super(out);
    }

    @Override
    public void write(int b) throws IOException {
        out.write(b);
        crc.update(b);
        bytes++;
    }

    @Override
    public void write(byte[] buffer, int offset, int length) throws IOException {
        out.write(buffer, offset, length);
        crc.update(buffer, offset, length);
        bytes += length;
    }

    public long bytes() {
        return bytes;
    }

    /** The checksum as the manifest writes it: 8 lowercase hex digits. */
    public String crc32c() {
        return Crc32c.hex(crc.getValue());
    }
}
