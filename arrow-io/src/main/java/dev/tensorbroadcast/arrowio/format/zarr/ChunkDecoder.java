package dev.tensorbroadcast.arrowio.format.zarr;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;
import java.util.zip.GZIPInputStream;

/**
 * Decodes one encoded chunk into a caller's buffer of exactly one chunk's bytes: its CRC-32C checked and dropped
 * when the codecs end with {@code crc32c}, decompressed (zstd, gzip, or none), then turned little endian.
 */
final class ChunkDecoder {
    private ChunkDecoder() {}

    static void decode(ZarrMetadata metadata, byte[] encoded, byte[] chunk, String where) throws IOException {
        int length = encoded.length;
        if (metadata.chunkCrc()) {
            if (length < 4) {
                throw new IOException(where + ": " + length + " bytes, shorter than its crc32c");
            }
            length -= 4;
            CRC32C crc = new CRC32C();
            crc.update(encoded, 0, length);
            int stored = ByteBuffer.wrap(encoded, length, 4)
                    .order(ByteOrder.LITTLE_ENDIAN)
                    .getInt();
            if (stored != (int) crc.getValue()) {
                throw new IOException(where + ": chunk checksum mismatch: crc32c "
                        + String.format("%08x", crc.getValue()) + ", the chunk says " + String.format("%08x", stored));
            }
        }
        int bytes = chunk.length;
        switch (metadata.layout().compression().codec()) {
            case NONE -> {
                if (length != bytes) {
                    throw new IOException(where + ": a chunk of " + length + " bytes; expected " + bytes);
                }
                System.arraycopy(encoded, 0, chunk, 0, bytes);
            }
            case ZSTD -> {
                long size = Zstd.getFrameContentSize(encoded, 0, length);
                if (size != bytes && size >= 0) {
                    throw new IOException(where + ": a zstd frame of " + size + " bytes; a chunk is " + bytes);
                }
                long decoded;
                try {
                    decoded = Zstd.decompressByteArray(chunk, 0, bytes, encoded, 0, length);
                } catch (RuntimeException e) {
                    throw new IOException(where + ": not a zstd frame: " + e.getMessage(), e);
                }
                if (Zstd.isError(decoded)) {
                    throw new IOException(
                            where + ": not a zstd frame of " + bytes + " bytes: " + Zstd.getErrorName(decoded));
                }
                if (decoded != bytes) {
                    throw new IOException(where + ": a chunk of " + decoded + " bytes decoded; expected " + bytes);
                }
            }
            case GZIP -> {
                try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(encoded, 0, length))) {
                    int read = in.readNBytes(chunk, 0, bytes);
                    if (read != bytes || in.read() != -1) {
                        throw new IOException(where + ": a gzip chunk not of " + bytes + " bytes");
                    }
                }
            }
            default ->
                throw new IOException(
                        where + ": codec " + metadata.layout().compression().codec());
        }
        ZarrMetadata.toLittleEndian(chunk, 0, bytes, metadata.layout().dtype(), metadata.order());
    }
}
