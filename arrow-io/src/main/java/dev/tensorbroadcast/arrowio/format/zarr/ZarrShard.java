package dev.tensorbroadcast.arrowio.format.zarr;

import static java.util.Objects.requireNonNull;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * One shard object opened for reading its chunks: its index read (and its CRC-32C checked) once, each chunk then
 * one positioned read.
 */
final class ZarrShard implements AutoCloseable {
    private final Path path;
    private final FSDataInputStream in;
    private final ByteBuffer index;
    private final long length;
    private final int count;

    private ZarrShard(Path path, FSDataInputStream in, ByteBuffer index, long length, int count) {
        this.path = requireNonNull(path, "path is null");
        this.in = in;
        this.index = index;
        this.length = length;
        this.count = count;
    }

    /** The shard at {@code path} of {@code count} chunks, or null when it is missing (every chunk the fill value). */
    static ZarrShard open(FileSystem fileSystem, Path path, int count, ZarrMetadata metadata) throws IOException {
        FSDataInputStream in;
        long length;
        try {
            length = fileSystem.getFileStatus(path).getLen();
            in = fileSystem.open(path);
        } catch (FileNotFoundException e) {
            return null;
        }
        try {
            int indexBytes = count * 16 + (metadata.indexCrc() ? 4 : 0);
            if (length < indexBytes) {
                throw new IOException(path + ": " + length + " bytes, shorter than its index of " + indexBytes);
            }
            byte[] index = new byte[indexBytes];
            in.readFully(metadata.indexAtEnd() ? length - indexBytes : 0, index);
            if (metadata.indexCrc()) {
                CRC32C crc = new CRC32C();
                crc.update(index, 0, count * 16);
                int stored = ByteBuffer.wrap(index, count * 16, 4)
                        .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                        .getInt();
                if (stored != (int) crc.getValue()) {
                    throw new IOException(path + ": shard index checksum mismatch: crc32c "
                            + String.format("%08x", crc.getValue()) + ", the index says "
                            + String.format("%08x", stored));
                }
            }
            return new ZarrShard(path, in, ByteBuffer.wrap(index).order(metadata.indexOrder()), length, count);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    Path path() {
        return path;
    }

    /** The encoded bytes of chunk {@code inShard} (C order within the shard), or null when it is empty. */
    byte[] chunk(int inShard) throws IOException {
        if (inShard < 0 || inShard >= count) {
            throw new IndexOutOfBoundsException("chunk " + inShard + " of " + count);
        }
        long offset = index.getLong(inShard * 16);
        long size = index.getLong(inShard * 16 + 8);
        if (offset == -1L && size == -1L) {
            return null;
        }
        if (offset < 0 || size < 0 || size > Integer.MAX_VALUE || offset + size > length) {
            throw new IOException(path + ": chunk " + inShard + " of the shard at [" + offset + ", +" + size
                    + ") lies outside its " + length + " bytes");
        }
        byte[] encoded = new byte[(int) size];
        in.readFully(offset, encoded);
        return encoded;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
