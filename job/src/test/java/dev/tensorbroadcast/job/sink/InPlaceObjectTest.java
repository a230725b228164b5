package dev.tensorbroadcast.job.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The argument for writing an array's objects in place by every attempt: the file only ever holds a prefix of its
 * bytes or all of them, never less than another attempt already wrote.
 */
class InPlaceObjectTest {
    private static final byte[] BYTES = "the same bytes whichever attempt writes them".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    @Test
    void aNewObjectIsWrittenWithTheDirectoriesAboveIt() throws IOException {
        Path file = dir.resolve("c/3/0");
        try (InPlaceObject out = InPlaceObject.open(file)) {
            assertThat(out.existed()).isFalse();
            out.write(BYTES, 0, 10);
            out.write(BYTES, 10, BYTES.length - 10);
        }
        assertThat(Files.readAllBytes(file)).isEqualTo(BYTES);
    }

    @Test
    void aWholeObjectOfAnotherAttemptIsNeverCutWhileASecondAttemptWrites() throws IOException {
        Path file = dir.resolve("c/0");
        Files.createDirectories(file.getParent());
        Files.write(file, BYTES);

        try (InPlaceObject second = InPlaceObject.open(file)) {
            assertThat(second.existed()).isTrue();
            // opened, and halfway: the first attempt's object is still whole (a truncating open would empty it)
            assertThat(Files.readAllBytes(file)).isEqualTo(BYTES);
            second.write(BYTES, 0, 5);
            assertThat(Files.readAllBytes(file)).isEqualTo(BYTES);
            second.write(BYTES, 5, BYTES.length - 5);
        }
        assertThat(Files.readAllBytes(file)).isEqualTo(BYTES);
    }

    @Test
    void thePrefixAKilledAttemptLeftIsCompleted() throws IOException {
        Path file = dir.resolve("c/0");
        Files.createDirectories(file.getParent());
        Files.write(file, Arrays.copyOf(BYTES, 7));

        try (InPlaceObject retry = InPlaceObject.open(file)) {
            retry.write(BYTES, 0, BYTES.length);
        }
        assertThat(Files.readAllBytes(file)).isEqualTo(BYTES);
    }

    @Test
    void otherBytesFailTheAttemptAndStayAsTheyWere() throws IOException {
        Path file = dir.resolve("c/0");
        Files.createDirectories(file.getParent());
        byte[] other = BYTES.clone();
        other[12] ^= 1;
        Files.write(file, other);

        try (InPlaceObject retry = InPlaceObject.open(file)) {
            assertThatThrownBy(() -> retry.write(BYTES, 0, BYTES.length))
                    .isInstanceOf(IOException.class)
                    .hasMessage(file + " holds other bytes than this attempt's from byte 12 on: another attempt"
                            + " wrote different contents (a codec that is not deterministic across executors?), or"
                            + " the file is not this job's");
        }
        assertThat(Files.readAllBytes(file)).isEqualTo(other);
    }

    @Test
    void aLongerFileIsNotThisJobs() throws IOException {
        Path file = dir.resolve("c/0");
        Files.createDirectories(file.getParent());
        byte[] longer = Arrays.copyOf(BYTES, BYTES.length + 3);
        Files.write(file, longer);

        InPlaceObject retry = InPlaceObject.open(file);
        retry.write(BYTES, 0, BYTES.length);
        assertThatThrownBy(retry::close)
                .isInstanceOf(IOException.class)
                .hasMessage(file + " is " + longer.length + " bytes, longer than the " + BYTES.length
                        + " this attempt wrote: it is not this job's");
    }
}
