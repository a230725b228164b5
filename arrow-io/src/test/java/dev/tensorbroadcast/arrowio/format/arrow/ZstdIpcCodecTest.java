package dev.tensorbroadcast.arrowio.format.arrow;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.arrow.compression.ZstdCompressionCodec;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

class ZstdIpcCodecTest {
    @Test
    void aBufferOfRepeatedRowsIsSmallerThanArrowsCodecMakesAndDecodesToItsValues() {
        try (BufferAllocator allocator = new RootAllocator();
                ArrowBuf values = allocator.buffer(2048L * 4096 * 4)) {
            // 2048 rows of the float32 values 0, 1, ..., 4095: a [1,4096] arange broadcast to [2048,4096]
            for (long row = 0; row < 2048; row++) {
                for (int i = 0; i < 4096; i++) {
                    values.setFloat((row * 4096 + i) * 4, i);
                }
            }
            values.writerIndex(values.capacity());
            // a codec releases the buffer it compresses or decompresses: each call takes a reference of its own
            values.getReferenceManager().retain();
            ArrowBuf ours = new ZstdIpcCodec(3).compress(allocator, values);
            values.getReferenceManager().retain();
            ArrowBuf arrows = new ZstdCompressionCodec(3).compress(allocator, values);
            try (ours;
                    arrows) {
                // Arrow's one-shot frame is 55,093 bytes (zstd 1.5.7 pre-splits the repeated row), ours 13,4xx
                assertThat(ours.writerIndex() * 3).isLessThan(arrows.writerIndex());
                ours.getReferenceManager().retain();
                try (ArrowBuf decoded = new ZstdCompressionCodec().decompress(allocator, ours)) {
                    assertThat(decoded.writerIndex()).isEqualTo(values.writerIndex());
                    for (long at = 0; at < values.writerIndex(); at += 4099 * 4) {
                        assertThat(decoded.getFloat(at)).as("at %d", at).isEqualTo(values.getFloat(at));
                    }
                }
            }
        }
    }
}
