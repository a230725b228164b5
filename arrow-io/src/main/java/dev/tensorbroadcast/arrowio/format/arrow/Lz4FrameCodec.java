package dev.tensorbroadcast.arrowio.format.arrow;

import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.xxhash.XXHashFactory;
import org.apache.arrow.compression.Lz4CompressionCodec;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.compression.AbstractCompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;

/**
 * Arrow IPC's LZ4_FRAME codec on direct memory: compresses an Arrow buffer in place, block by block, with lz4-java's
 * native compressor, into the LZ4 frame format (independent 4 MiB blocks, no checksums). Arrow's own LZ4 codec copies
 * every buffer into a byte array and through a pure-Java stream, about 0.1 GB/s here. Reading is Arrow's codec.
 */
final class Lz4FrameCodec extends AbstractCompressionCodec {
    private static final int MAGIC = 0x184D2204;
    /** Version 01, independent blocks, no block or content checksum, no content size, no dictionary. */
    private static final byte FLG = 0x60;
    /** Maximum block size 4 MiB. */
    private static final byte BD = 0x70;

    private static final int BLOCK_BYTES = 4 << 20;
    private static final int HEADER_BYTES = 7;
    private static final int UNCOMPRESSED_BLOCK = 0x80000000;

    private static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();
    /** The frame descriptor's checksum: the second byte of the xxHash32 of FLG and BD. */
    private static final byte HC =
            (byte) (XXHashFactory.fastestInstance().hash32().hash(new byte[] {FLG, BD}, 0, 2, 0) >>> 8);

    private final Lz4CompressionCodec reader = new Lz4CompressionCodec();

    @Override
    protected ArrowBuf doCompress(BufferAllocator allocator, ArrowBuf uncompressed) {
        long length = uncompressed.writerIndex();
        long blocks = (length + BLOCK_BYTES - 1) / BLOCK_BYTES;
        long capacity = CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH
                + HEADER_BYTES
                + blocks * (Integer.BYTES + COMPRESSOR.maxCompressedLength(BLOCK_BYTES))
                + Integer.BYTES;
        ArrowBuf out = allocator.buffer(capacity);
        try {
            long at = CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH;
            out.setInt(at, MAGIC);
            out.setByte(at + 4, FLG);
            out.setByte(at + 5, BD);
            out.setByte(at + 6, HC);
            at += HEADER_BYTES;
            for (long from = 0; from < length; from += BLOCK_BYTES) {
                int size = (int) Math.min(BLOCK_BYTES, length - from);
                int maxCompressed = COMPRESSOR.maxCompressedLength(size);
                int compressed = COMPRESSOR.compress(
                        uncompressed.nioBuffer(from, size),
                        0,
                        size,
                        out.nioBuffer(at + Integer.BYTES, maxCompressed),
                        0,
                        maxCompressed);
                if (compressed < size) {
                    out.setInt(at, compressed);
                    at += Integer.BYTES + compressed;
                } else {
                    out.setInt(at, size | UNCOMPRESSED_BLOCK);
                    out.setBytes(at + Integer.BYTES, uncompressed, from, size);
                    at += Integer.BYTES + size;
                }
            }
            out.setInt(at, 0);
            out.writerIndex(at + Integer.BYTES);
            return out;
        } catch (RuntimeException | Error e) {
            out.close();
            throw e;
        }
    }

    /** Never called: {@link #decompress} hands whole buffers to Arrow's own codec, which reads standard LZ4 frames. */
    @Override
    protected ArrowBuf doDecompress(BufferAllocator allocator, ArrowBuf compressed) {
        throw new UnsupportedOperationException("decompress is Arrow's LZ4 codec");
    }

    @Override
    public ArrowBuf decompress(BufferAllocator allocator, ArrowBuf compressed) {
        return reader.decompress(allocator, compressed);
    }

    @Override
    public CompressionUtil.CodecType getCodecType() {
        return CompressionUtil.CodecType.LZ4_FRAME;
    }
}
