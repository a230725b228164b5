package dev.tensorbroadcast.arrowio;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

class BitsGetTest {
    @Test
    void readsLeastSignificantBitFirstOnTheHeapAndInArrowBuffers() {
        byte[] bits = {(byte) 0b1000_0101, 0b0000_0010};
        boolean[] expected = {true, false, true, false, false, false, false, true, false, true};
        try (BufferAllocator allocator = new RootAllocator();
                ArrowBuf buffer = allocator.buffer(2)) {
            buffer.setBytes(0, bits);
            for (int i = 0; i < expected.length; i++) {
                assertThat(Bits.get(bits, i)).as("heap bit %d", i).isEqualTo(expected[i]);
                assertThat(Bits.get(buffer, i)).as("buffer bit %d", i).isEqualTo(expected[i]);
            }
        }
    }
}
