package dev.tensorbroadcast.job.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ElementTextTest {
    private static float half(int bits) {
        return ElementText.halfToFloat((short) bits);
    }

    @Test
    void halfFloatsConvertExactly() {
        assertThat(half(0x3C00)).isEqualTo(1.0f);
        assertThat(half(0xC000)).isEqualTo(-2.0f);
        assertThat(half(0x3555)).isEqualTo(0.333251953125f);
        assertThat(half(0x7BFF)).isEqualTo(65504.0f);
        assertThat(half(0x0400)).isEqualTo(0x1p-14f);
        assertThat(half(0x0001)).isEqualTo(0x1p-24f);
        assertThat(half(0x83FF)).isEqualTo(-1023 * 0x1p-24f);
        assertThat(Float.floatToRawIntBits(half(0x0000))).isEqualTo(0);
        assertThat(Float.floatToRawIntBits(half(0x8000))).isEqualTo(0x8000_0000);
        assertThat(half(0x7C00)).isEqualTo(Float.POSITIVE_INFINITY);
        assertThat(half(0xFC00)).isEqualTo(Float.NEGATIVE_INFINITY);
        assertThat(Float.floatToRawIntBits(half(0x7E01))).isEqualTo(0x7FC0_2000);
    }

    @Test
    void everyFiniteHalfIsItsExactValue() {
        for (int bits = 0; bits < 0x10000; bits++) {
            int exponent = (bits >>> 10) & 0x1F;
            int mantissa = bits & 0x3FF;
            if (exponent == 0x1F) {
                continue;
            }
            double magnitude = exponent == 0 ? mantissa * 0x1p-24 : (1024 + mantissa) * Math.scalb(1.0, exponent - 25);
            double expected = (bits & 0x8000) == 0 ? magnitude : -magnitude;
            assertThat((double) half(bits)).as("0x%04x", bits).isEqualTo(expected);
        }
    }
}
