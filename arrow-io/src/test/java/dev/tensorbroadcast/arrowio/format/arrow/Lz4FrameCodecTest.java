package dev.tensorbroadcast.arrowio.format.arrow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.apache.arrow.compression.Lz4CompressionCodec;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

/** Frames this codec writes are read back by Arrow's own LZ4 codec (commons-compress), byte for byte. */
class Lz4FrameCodecTest {
    @Test
    void repeatedDataOverSeveralBlocksCompressesAndReadsBack() {
        // 9 MiB of a repeated float row: three 4 MiB blocks, the last one partial
        byte[] data = new byte[9 << 20];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) ((i % 16384) * 31 >>> 3);
        }
        int compressed = roundTrip(data);
        assertThat(compressed).isLessThan(data.length / 50);
    }

    @Test
    void incompressibleBlocksAreStoredRawAndReadBack() {
        byte[] data = new byte[(4 << 20) + 1000];
        new Random(11).nextBytes(data);
        int compressed = roundTrip(data);
        // Arrow sends the raw buffer when the frame is larger than the data: either way it reads back
        assertThat(compressed).isGreaterThan(data.length - 1);
    }

    @Test
    void aFewBytesReadBack() {
        roundTrip(new byte[] {1, 2, 3, 4, 5, 6, 7});
    }

    /** Compresses with this codec, decompresses with Arrow's; returns the compressed size (length prefix excluded). */
    private static int roundTrip(byte[] data) {
        try (BufferAllocator allocator = new RootAllocator()) {
            ArrowBuf input = allocator.buffer(data.length);
            input.setBytes(0, data);
            input.writerIndex(data.length);
            // compress and decompress release their input
            ArrowBuf compressed = new Lz4FrameCodec().compress(allocator, input);
            int size = (int) compressed.writerIndex() - 8;
            try (ArrowBuf output = new Lz4CompressionCodec().decompress(allocator, compressed)) {
                byte[] back = new byte[(int) output.writerIndex()];
                output.getBytes(0, back);
                assertThat(back).isEqualTo(data);
                return size;
            }
        }
    }
}
