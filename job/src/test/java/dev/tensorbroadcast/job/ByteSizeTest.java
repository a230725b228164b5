package dev.tensorbroadcast.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.planner.InvalidRequestException;
import org.junit.jupiter.api.Test;

class ByteSizeTest {
    @Test
    void parsesBinaryUnitsInEitherCase() {
        assertThat(ByteSize.parse("size", "4096")).isEqualTo(4096);
        assertThat(ByteSize.parse("size", "64k")).isEqualTo(64 * 1024);
        assertThat(ByteSize.parse("size", "128M")).isEqualTo(128L << 20);
        assertThat(ByteSize.parse("size", "1g")).isEqualTo(1L << 30);
        assertThat(ByteSize.parse("size", " 1T ")).isEqualTo(1L << 40);
    }

    @Test
    void rejectsWhatItCannotRead() {
        assertThatThrownBy(() -> ByteSize.parse("partition size", "1.5g"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot parse partition size '1.5g': write a number of bytes with an optional k, m, g or t"
                        + " (binary units), such as 128m or 4096");
        assertThatThrownBy(() -> ByteSize.parse("partition size", "-1")).hasMessageStartingWith("Cannot parse");
        assertThatThrownBy(() -> ByteSize.parse("partition size", "9000000t"))
                .hasMessage("Cannot parse partition size '9000000t': it exceeds 9223372036854775807 bytes");
        assertThatThrownBy(() -> ByteSize.parse("partition size", "99999999999999999999"))
                .hasMessage("Cannot parse partition size '99999999999999999999': it exceeds 9223372036854775807 bytes");
    }

    @Test
    void formatsWithOneDecimalInTheLargestUnit() {
        assertThat(ByteSize.format(0)).isEqualTo("0 B");
        assertThat(ByteSize.format(1023)).isEqualTo("1023 B");
        assertThat(ByteSize.format(1024)).isEqualTo("1.0 KiB");
        assertThat(ByteSize.format(1536)).isEqualTo("1.5 KiB");
        assertThat(ByteSize.format(1L << 30)).isEqualTo("1.0 GiB");
        assertThat(ByteSize.format(4_000_000_000_000_000L)).isEqualTo("3.6 PiB");
        assertThat(ByteSize.format(Long.MAX_VALUE)).isEqualTo("8.0 EiB");
    }
}
