package dev.tensorbroadcast.arrowio.format.arrow;

import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;

/** The codecs the writers compress IPC bodies with: {@link Lz4FrameCodec}, {@link ZstdIpcCodec}, or Arrow's none. */
final class IpcCodecs implements CompressionCodec.Factory {
    static final IpcCodecs INSTANCE = new IpcCodecs();

    private IpcCodecs() {}

    @Override
    public CompressionCodec createCodec(CompressionUtil.CodecType codecType) {
        return codecType == CompressionUtil.CodecType.LZ4_FRAME
                ? new Lz4FrameCodec()
                : codecType == CompressionUtil.CodecType.ZSTD
                        ? new ZstdIpcCodec(ZstdIpcCodec.DEFAULT_LEVEL)
                        : CommonsCompressionFactory.INSTANCE.createCodec(codecType);
    }

    @Override
    public CompressionCodec createCodec(CompressionUtil.CodecType codecType, int compressionLevel) {
        return codecType == CompressionUtil.CodecType.LZ4_FRAME
                ? new Lz4FrameCodec()
                : codecType == CompressionUtil.CodecType.ZSTD
                        ? new ZstdIpcCodec(compressionLevel)
                        : CommonsCompressionFactory.INSTANCE.createCodec(codecType, compressionLevel);
    }
}
