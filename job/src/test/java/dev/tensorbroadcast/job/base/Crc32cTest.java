package dev.tensorbroadcast.job.base;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Crc32cTest {
    @TempDir
    Path tmp;

    @Test
    void checksumsAreEightLowercaseHexDigits() {
        assertThat(Crc32c.hex(0xABCL)).isEqualTo("00000abc");
        assertThat(Crc32c.hex(0xFFFF_FFFFL)).isEqualTo("ffffffff");
        assertThat(Crc32c.hex(0L)).isEqualTo("00000000");
    }

    @Test
    void aFileIsCheckedWhole() throws Exception {
        // the CRC-32C check value from RFC 3720
        Path file = Files.writeString(tmp.resolve("digits"), "123456789", StandardCharsets.US_ASCII);
        CRC32C crc = new CRC32C();
        crc.update("123456789".getBytes(StandardCharsets.US_ASCII));

        String found =
                Crc32c.of(FileSystem.getLocal(new Configuration(false)), new org.apache.hadoop.fs.Path(file.toUri()));

        assertThat(found).isEqualTo("e3069283").isEqualTo(Crc32c.hex(crc.getValue()));
    }
}
