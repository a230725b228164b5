package dev.tensorbroadcast.job.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.job.dataset.TestDatasets;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class VerifyCommandTest {
    @TempDir
    Path tmp;

    /** (1,3) of 1001.5, 1002.5, 1003.5 broadcast to (4,3), in two files of two rows. */
    private Manifest floats(Path dir, String format) throws Exception {
        return TestDatasets.write(dir, TestDatasets.floats(Shape.of(1, 3), 1001.5f), new long[] {4, 3}, format, 2);
    }

    private Path floatSource() throws Exception {
        return TestDatasets.writeNpy(tmp.resolve("source.npy"), TestDatasets.floats(Shape.of(1, 3), 1001.5f));
    }

    @ParameterizedTest
    @ValueSource(strings = {"arrow", "parquet"})
    void cleanDatasetsPassWithAndWithoutTheSource(String format) throws Exception {
        Path dir = tmp.resolve("out");
        Manifest manifest = floats(dir, format);
        long bytes = manifest.files().stream().mapToLong(file -> file.bytes()).sum();

        CliRun plain = CliRun.of("verify", dir.toString());
        CliRun source =
                CliRun.of("verify", dir.toString(), "--source", floatSource().toString());
        CliRun json =
                CliRun.of("verify", dir.toString(), "--source", floatSource().toString(), "--json");

        assertThat(plain.exitCode()).isZero();
        assertThat(plain.out()).isEqualTo("OK: " + dir + ": 2 files, " + bytes + " bytes, checksums match\n");
        assertThat(source.exitCode()).isZero();
        assertThat(source.err()).isEmpty();
        assertThat(source.out())
                .isEqualTo("OK: " + dir + ": 2 files, " + bytes + " bytes, checksums match,"
                        + " 12 values match the source\n");
        JsonNode report = json.json();
        assertThat(report.get("ok").asBoolean()).isTrue();
        assertThat(report.get("values_compared").asLong()).isEqualTo(12);
        assertThat(report.get("problems").size()).isZero();
    }

    @Test
    void reportsAFlippedByteATruncatedFileAMissingFileAndAnExtraFile() throws Exception {
        Path dir = tmp.resolve("out");
        TestDatasets.write(dir, TestDatasets.floats(Shape.of(1, 3), 1001.5f), new long[] {8, 3}, "arrow", 4);
        byte[] first = Files.readAllBytes(dir.resolve("part-00000.arrow"));
        String listed = crc(first);
        first[first.length / 2] ^= 0x10;
        Files.write(dir.resolve("part-00000.arrow"), first);
        long fullSize = Files.size(dir.resolve("part-00001.arrow"));
        try (FileChannel channel = FileChannel.open(dir.resolve("part-00001.arrow"), StandardOpenOption.WRITE)) {
            channel.truncate(fullSize - 7);
        }
        Files.delete(dir.resolve("part-00002.arrow"));
        Files.copy(dir.resolve("part-00003.arrow"), dir.resolve("part-00009.arrow"));

        CliRun run = CliRun.of("verify", dir.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).isEmpty();
        assertThat(run.out())
                .isEqualTo(""
                        + "part-00000.arrow: checksum mismatch: crc32c " + crc(first) + ", the manifest says " + listed
                        + "\n"
                        + "part-00001.arrow: truncated: " + (fullSize - 7) + " bytes, the manifest says " + fullSize
                        + "\n"
                        + "part-00002.arrow: missing\n"
                        + "part-00009.arrow: extra file, not listed in the manifest\n"
                        + "FAILED: " + dir + ": 4 problems\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"arrow", "parquet"})
    void theSourceCatchesAFlippedValueEvenWhenTheChecksumWasRecomputed(String format) throws Exception {
        Path dir = tmp.resolve("out");
        Manifest manifest = floats(dir, format);
        String name = "part-00001." + format;
        byte[] bytes = Files.readAllBytes(dir.resolve(name));
        int at = indexOf(bytes, floatBytes(1003.5f));
        bytes[at] ^= 0x01;
        Files.write(dir.resolve(name), bytes);
        TestDatasets.writeManifest(dir, TestDatasets.rechecksum(dir, manifest, name));

        CliRun checksums = CliRun.of("verify", dir.toString());
        CliRun values =
                CliRun.of("verify", dir.toString(), "--source", floatSource().toString());

        assertThat(checksums.exitCode()).isZero();
        assertThat(values.exitCode()).isEqualTo(1);
        String found = Float.toString(Float.intBitsToFloat(Float.floatToIntBits(1003.5f) ^ 0x01));
        assertThat(values.out())
                .isEqualTo(""
                        + name + ": row 2 element 2: expected 1003.5, found " + found + "\n"
                        + name + ": 1 value differs from the source\n"
                        + "FAILED: " + dir + ": 2 problems\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"arrow", "parquet"})
    void everyDtypeWithNullsMatchesItsSource(String format) throws Exception {
        for (DType dtype : DType.values()) {
            Path dir = tmp.resolve(format + "-" + dtype);
            SourceTensor source = TestDatasets.random(dtype, Shape.of(3, 1, 5), dtype.ordinal(), true);
            TestDatasets.write(dir, source, new long[] {2, 3, 4, 5}, format, 3);
            Path sourceFile = TestDatasets.writeArrowSource(tmp.resolve(dtype + ".arrow"), source);

            CliRun run = CliRun.of("verify", dir.toString(), "--source", sourceFile.toString(), "--json");

            assertThat(run.json().get("problems").toString())
                    .as(dtype.typeName())
                    .isEqualTo("[]");
            assertThat(run.exitCode()).isZero();
            assertThat(run.json().get("values_compared").asLong()).isEqualTo(120);
        }
    }

    @Test
    void aStringValueChangedInPlaceIsNamed() throws Exception {
        Path dir = tmp.resolve("out");
        byte[] utf8 = "première-valeurseconde".getBytes(UTF_8);
        int split = "première-valeur".getBytes(UTF_8).length;
        SourceTensor source = SourceTensor.strings(Shape.of(2), new int[] {0, split, utf8.length}, utf8, null);
        Manifest manifest = TestDatasets.write(dir, source, new long[] {3, 2}, "arrow", 1);
        Path sourceFile = TestDatasets.writeArrowSource(tmp.resolve("strings.arrow"), source);
        byte[] bytes = Files.readAllBytes(dir.resolve("part-00000.arrow"));
        int at = indexOf(bytes, "première-valeur".getBytes(UTF_8));
        bytes[at] = (byte) 'Q';
        Files.write(dir.resolve("part-00000.arrow"), bytes);
        TestDatasets.writeManifest(dir, TestDatasets.rechecksum(dir, manifest, "part-00000.arrow"));

        CliRun run = CliRun.of("verify", dir.toString(), "--source", sourceFile.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out())
                .isEqualTo(""
                        + "part-00000.arrow: row 0 element 0: expected 'première-valeur', found 'Qremière-valeur'\n"
                        + "part-00000.arrow: 1 value differs from the source\n"
                        + "FAILED: " + dir + ": 2 problems\n");
    }

    @Test
    void filesThatHoldOtherRowsThanListedAreNamed() throws Exception {
        Path dir = tmp.resolve("out");
        Manifest manifest = floats(dir, "parquet");
        Path shorter = tmp.resolve("shorter");
        TestDatasets.write(shorter, TestDatasets.floats(Shape.of(1, 3), 1001.5f), new long[] {3, 3}, "parquet", 2);
        Path first = dir.resolve("part-00000.parquet");
        Path second = dir.resolve("part-00001.parquet");
        Path swap = tmp.resolve("swap");
        Files.move(first, swap);
        Files.move(second, first);
        Files.move(swap, second);
        Files.copy(shorter.resolve("part-00001.parquet"), second, StandardCopyOption.REPLACE_EXISTING);
        manifest = TestDatasets.rechecksum(dir, manifest, "part-00000.parquet");
        TestDatasets.writeManifest(dir, TestDatasets.rechecksum(dir, manifest, "part-00001.parquet"));

        CliRun run =
                CliRun.of("verify", dir.toString(), "--source", floatSource().toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out())
                .isEqualTo(""
                        + "part-00000.parquet: cannot read: a batch starts at row 2, expected row 0\n"
                        + "part-00001.parquet: cannot read: it holds rows 2..3 (exclusive), the manifest says 2..4\n"
                        + "FAILED: " + dir + ": 2 problems\n");
    }

    @Test
    void aSourceOfAnotherShapeIsRefused() throws Exception {
        Path dir = tmp.resolve("out");
        floats(dir, "arrow");
        Path other = TestDatasets.writeNpy(tmp.resolve("other.npy"), TestDatasets.floats(Shape.of(2, 3), 0));

        CliRun run = CliRun.of("verify", dir.toString(), "--source", other.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err())
                .isEqualTo("Cannot verify " + dir + " against this source: it is float32 (2,3) but"
                        + " the dataset was made from float32 (1,3) (source.npy)\n");
    }

    @Test
    void withoutAManifestNothingCanBeChecked() throws Exception {
        Path dir = tmp.resolve("out");
        floats(dir, "arrow");
        Files.delete(dir.resolve(Manifest.FILE_NAME));

        CliRun run = CliRun.of("verify", dir.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out())
                .isEqualTo("no _manifest.json: the dataset is incomplete, so nothing can be checked\n" + "FAILED: "
                        + dir + ": 1 problem\n");
    }

    @Test
    void aMissingDirectoryIsRefused() {
        CliRun run = CliRun.of("verify", tmp.resolve("nothing").toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("Cannot verify " + tmp.resolve("nothing") + ": no such directory\n");
    }

    static String crc(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return String.format("%08x", crc.getValue());
    }

    static byte[] floatBytes(float value) {
        return ByteBuffer.allocate(4)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putFloat(value)
                .array();
    }

    static int indexOf(byte[] bytes, byte[] pattern) {
        outer:
        for (int i = 0; i + pattern.length <= bytes.length; i++) {
            for (int k = 0; k < pattern.length; k++) {
                if (bytes[i + k] != pattern[k]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("pattern not found");
    }
}
