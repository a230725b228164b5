package dev.tensorbroadcast.arrowio;

import java.util.Locale;
import org.apache.arrow.vector.compression.CompressionUtil;

/** Arrow IPC body compression: the two codecs the IPC format defines, or none. */
public enum IpcCompression {
    NONE("none", CompressionUtil.CodecType.NO_COMPRESSION),
    LZ4("lz4", CompressionUtil.CodecType.LZ4_FRAME),
    ZSTD("zstd", CompressionUtil.CodecType.ZSTD);

    private final String name;
    private final CompressionUtil.CodecType codec;

    IpcCompression(String name, CompressionUtil.CodecType codec) {
        this.name = name;
        this.codec = codec;
    }

    public CompressionUtil.CodecType codec() {
        return codec;
    }

    public static IpcCompression parse(String text) {
        String key = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        for (IpcCompression compression : values()) {
            if (compression.name.equals(key)) {
                return compression;
            }
        }
        if (key.equals("lz4_frame")) {
            return LZ4;
        }
        throw new IllegalArgumentException("Cannot parse Arrow IPC compression '" + text
                + "': expected none, lz4 or zstd");
    }

    @Override
    public String toString() {
        return name;
    }
}
