package dev.tensorbroadcast.arrowio.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.Zstd;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ZstdFramesTest {
    /** 2048 rows of the float32 values 0, 1, ..., 4095 (32 MiB): a [1,4096] arange broadcast to [2048,4096]. */
    private static byte[] repeatedRows() {
        ByteBuffer row = ByteBuffer.allocate(4096 * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 4096; i++) {
            row.putFloat(i);
        }
        byte[] values = new byte[2048 * row.capacity()];
        for (int r = 0; r < 2048; r++) {
            System.arraycopy(row.array(), 0, values, r * row.capacity(), row.capacity());
        }
        return values;
    }

    @Test
    void aRepeatedRowCompressesAsSmallAsTensorstoresChunk() {
        byte[] values = repeatedRows();
        try (ZstdFrames frames = new ZstdFrames(3)) {
            byte[] frame = frames.compress(values, 0, values.length);

            // tensorstore 0.1.85 writes this array as one zstd:3 chunk of 16,231 bytes; zstd-jni's one-shot
            // Zstd.compress 55,093 (zstd 1.5.7 pre-splits each 128 KiB block of the repeated row)
            assertThat(frame.length).isLessThanOrEqualTo(16_231);
            assertThat(Zstd.compress(values, 3).length).isGreaterThan(3 * frame.length);
            assertThat(Zstd.getFrameContentSize(frame)).isEqualTo(values.length);
            assertThat(Zstd.decompress(frame, values.length)).isEqualTo(values);
        }
    }

    @Test
    void inputUnderOneBlockIsWhatOneShotZstdWrites() {
        byte[] values = new byte[100_000];
        Random random = new Random(7);
        for (int i = 0; i < values.length; i++) {
            values[i] = (byte) random.nextInt(40);
        }
        try (ZstdFrames frames = new ZstdFrames(5)) {
            assertThat(frames.compress(values, 0, values.length)).isEqualTo(Zstd.compress(values, 5));
            assertThat(frames.compress(new byte[0], 0, 0)).isEqualTo(Zstd.compress(new byte[0], 5));
        }
    }

    @Test
    void directBuffersGiveTheSameFrameAsArraysAndAFrameDecodesToItsInput() {
        byte[] values = new byte[3 * ZstdFrames.PIECE + 12_345];
        new Random(11).nextBytes(values);
        for (int i = 0; i < values.length; i += 3) {
            values[i] = 0;
        }
        try (ZstdFrames frames = new ZstdFrames(3)) {
            byte[] fromArray = frames.compress(values, 5, values.length - 5);
            ByteBuffer source = ByteBuffer.allocateDirect(values.length);
            source.put(values).position(5);
            ByteBuffer target = ByteBuffer.allocateDirect(Math.toIntExact(ZstdFrames.bound(values.length)));
            target.position(8);
            int length = frames.compress(source, target);

            assertThat(length).isEqualTo(fromArray.length);
            assertThat(target.position()).isEqualTo(8 + length);
            byte[] fromBuffer = new byte[length];
            target.get(8, fromBuffer);
            assertThat(fromBuffer).isEqualTo(fromArray);
            assertThat(source.position()).isEqualTo(values.length);
            byte[] decoded = Zstd.decompress(fromArray, values.length - 5);
            assertThat(ByteBuffer.wrap(decoded)).isEqualTo(ByteBuffer.wrap(values, 5, values.length - 5));
        }
    }

    @Test
    void aLevelZstdDoesNotHaveIsRefused() {
        assertThatThrownBy(() -> new ZstdFrames(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot compress at zstd level 0: zstd takes 1 to 22");
    }
}
