package dev.tensorbroadcast.arrowio.format.arrow;

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

    @Override
    public String toString() {
        return name;
    }
}
