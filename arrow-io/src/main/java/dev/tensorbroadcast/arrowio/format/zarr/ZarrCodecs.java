package dev.tensorbroadcast.arrowio.format.zarr;

import dev.tensorbroadcast.arrowio.format.Compression;
import dev.tensorbroadcast.arrowio.format.ZstdFrames;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.zip.GZIPOutputStream;

/** The chunk codecs after {@code bytes}: none, zstd or gzip. */
final class ZarrCodecs {
    private ZarrCodecs() {}

    /** The zstd level a chunk is compressed at: {@code level}, or the default for 0. */
    static int zstdLevel(int level) {
        return level == 0 ? ZarrFormat.DEFAULT_ZSTD_LEVEL : level;
    }

    /** The gzip level a chunk is compressed at: {@code level}, or the default for 0. */
    static int gzipLevel(int level) {
        return level == 0 ? ZarrFormat.DEFAULT_GZIP_LEVEL : level;
    }

    /**
     * {@code chunk} encoded as {@code compression} says; {@code frames} compresses zstd at {@link #zstdLevel} (see
     * ZstdFrames for why). LZ4 never gets here: {@link ZarrFormat#refusal} refused it with the request.
     */
    static byte[] encode(Compression compression, byte[] chunk, ZstdFrames frames) throws IOException {
        return switch (compression.codec()) {
            case NONE -> chunk.clone();
            case ZSTD -> frames.compress(chunk, 0, chunk.length);
            case GZIP -> gzip(chunk, gzipLevel(compression.level()));
            case LZ4 -> throw new IllegalArgumentException("codec " + compression);
        };
    }

    private static byte[] gzip(byte[] chunk, int level) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(chunk.length / 4 + 64);
        try (GZIPOutputStream out = new GZIPOutputStream(bytes) {
            {
                def.setLevel(level);
            }
        }) {
            out.write(chunk);
        }
        return bytes.toByteArray();
    }
}
