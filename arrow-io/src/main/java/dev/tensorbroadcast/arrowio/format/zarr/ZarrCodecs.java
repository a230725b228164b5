package dev.tensorbroadcast.arrowio.format.zarr;

import com.github.luben.zstd.Zstd;
import dev.tensorbroadcast.arrowio.format.ZstdFrames;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/** The chunk codecs after {@code bytes}: none, zstd or gzip. */
final class ZarrCodecs {
    private ZarrCodecs() {}

    /** The zstd level a chunk is compressed at: {@code level}, or the default for 0. */
    static int zstdLevel(int level) {
        return level == 0 ? ZarrFormat.DEFAULT_ZSTD_LEVEL : level;
    }

    /** {@code chunk} encoded; {@code frames} compresses zstd at {@link #zstdLevel} (see ZstdFrames for why). */
    static byte[] encode(String codec, int level, byte[] chunk, ZstdFrames frames) throws IOException {
        return switch (codec) {
            case "none" -> chunk.clone();
            case "zstd" -> frames.compress(chunk, 0, chunk.length);
            case "gzip" -> gzip(chunk, level == 0 ? ZarrFormat.DEFAULT_GZIP_LEVEL : level);
            default -> throw new IllegalArgumentException("codec " + codec);
        };
    }

    /** Decodes {@code encoded} into exactly {@code bytes} bytes, else says why. */
    static byte[] decode(String codec, byte[] encoded, int bytes, String where) throws IOException {
        byte[] decoded = switch (codec) {
            case "none" -> encoded;
            case "zstd" -> {
                long size = Zstd.getFrameContentSize(encoded);
                if (size != bytes && size >= 0) {
                    throw new IOException(where + ": a zstd frame of " + size + " bytes; a chunk is " + bytes);
                }
                try {
                    yield Zstd.decompress(encoded, bytes);
                } catch (RuntimeException e) {
                    throw new IOException(where + ": not a zstd frame: " + e.getMessage(), e);
                }
            }
            case "gzip" -> {
                try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(encoded))) {
                    yield in.readAllBytes();
                }
            }
            default -> throw new IOException(where + ": codec " + codec);
        };
        if (decoded.length != bytes) {
            throw new IOException(where + ": a chunk of " + decoded.length + " bytes decoded; expected " + bytes);
        }
        return decoded;
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
