package dev.tensorbroadcast.arrowio.format.arrow;

import com.github.luben.zstd.Zstd;
import dev.tensorbroadcast.arrowio.format.ZstdFrames;
import java.nio.ByteBuffer;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.compression.AbstractCompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;

/**
 * Arrow IPC's ZSTD body compression, each buffer one frame made by {@link ZstdFrames} (Arrow's own codec compresses
 * a buffer in one call, which zstd 1.5.7 pre-splits: several times larger for a broadcast's repeated rows). Frames
 * any zstd reader decodes, as Arrow's do.
 */
final class ZstdIpcCodec extends AbstractCompressionCodec {
    /** Arrow's level when none is given. */
    static final int DEFAULT_LEVEL = 3;

    private final int level;

    ZstdIpcCodec(int level) {
        this.level = level;
    }

    @Override
    protected ArrowBuf doCompress(BufferAllocator allocator, ArrowBuf uncompressed) {
        long length = uncompressed.writerIndex();
        long room = CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH + ZstdFrames.bound(length);
        ArrowBuf compressed = allocator.buffer(room);
        try (ZstdFrames frames = new ZstdFrames(level)) {
            ByteBuffer target = compressed.nioBuffer(0, Math.toIntExact(room));
            target.position((int) CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH);
            int written = frames.compress(uncompressed.nioBuffer(0, Math.toIntExact(length)), target);
            compressed.writerIndex(CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH + written);
            return compressed;
        } catch (RuntimeException e) {
            compressed.close();
            throw e;
        }
    }

    @Override
    protected ArrowBuf doDecompress(BufferAllocator allocator, ArrowBuf compressed) {
        long length = readUncompressedLength(compressed);
        ArrowBuf decompressed = allocator.buffer(length);
        try {
            long frame = compressed.writerIndex() - CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH;
            long made = Zstd.decompressDirectByteBuffer(
                    decompressed.nioBuffer(0, Math.toIntExact(length)),
                    0,
                    Math.toIntExact(length),
                    compressed.nioBuffer(CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH, Math.toIntExact(frame)),
                    0,
                    Math.toIntExact(frame));
            if (made != length) {
                throw new IllegalStateException(
                        "Cannot decompress a zstd buffer: " + made + " bytes decoded, the" + " buffer says " + length);
            }
            decompressed.writerIndex(length);
            return decompressed;
        } catch (RuntimeException e) {
            decompressed.close();
            throw e;
        }
    }

    @Override
    public CompressionUtil.CodecType getCodecType() {
        return CompressionUtil.CodecType.ZSTD;
    }
}
