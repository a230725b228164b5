package dev.tensorbroadcast.job.cli;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.SourceLimits;
import dev.tensorbroadcast.arrowio.format.npy.NpyReader;
import dev.tensorbroadcast.job.dataset.TestDatasets;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.Shape;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ExportCommandTest {
    @TempDir
    Path tmp;

    static Stream<Arguments> dtypes() {
        return Stream.of(
                Arguments.of(DType.FLOAT32, "arrow", "<f4"),
                Arguments.of(DType.INT8, "parquet", "|i1"),
                Arguments.of(DType.UINT64, "arrow", "<u8"),
                Arguments.of(DType.BOOL, "parquet", "|b1"),
                Arguments.of(DType.BOOL, "arrow", "|b1"),
                Arguments.of(DType.FLOAT16, "parquet", "<f2"),
                Arguments.of(DType.COMPLEX64, "arrow", "<c8"),
                Arguments.of(DType.COMPLEX128, "parquet", "<c16"),
                Arguments.of(DType.STRING, "arrow", "<U"),
                Arguments.of(DType.STRING, "parquet", "<U"));
    }

    @ParameterizedTest
    @MethodSource("dtypes")
    void roundTripsThroughNumpysFormat(DType dtype, String format, String descr) throws Exception {
        SourceTensor source = TestDatasets.random(dtype, Shape.of(3, 1, 5), 11, false);
        Path dir = tmp.resolve("out");
        TestDatasets.write(dir, source, new long[] {2, 3, 4, 5}, format, 3);
        Path npy = tmp.resolve("out.npy");

        CliRun run = CliRun.of("export", dir.toString(), "--npy", npy.toString());

        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(header(npy)).contains("'descr': '" + descr).contains("'shape': (2, 3, 4, 5)");
        assertThat(run.out()).startsWith("wrote " + npy + ": " + descr);
        SourceTensor read = new NpyReader(SourceLimits.defaults()).read(npy);
        assertThat(read.dtype()).isEqualTo(dtype);
        assertThat(read.shape()).isEqualTo(Shape.of(2, 3, 4, 5));
        CopyProgram program = BroadcastRequest.builder(Dialect.NUMPY)
                .input(source.shape(), dtype)
                .target(2, 3, 4, 5)
                .build()
                .plan()
                .copyProgram(0);
        for (long i = 0; i < program.elements(); i++) {
            assertThat(element(read, i)).as("element %d", i).isEqualTo(element(source, program.sourceIndex(i)));
        }
        try (Stream<Path> files = Files.list(tmp)) {
            assertThat(files.map(path -> path.getFileName().toString())).containsExactlyInAnyOrder("out", "out.npy");
        }
    }

    @Test
    void stringsAreUtf32OfTheLongestString() throws Exception {
        byte[] utf8 = "a漢😀xyz".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        SourceTensor source = SourceTensor.strings(Shape.of(2), new int[] {0, 1 + 3 + 4, utf8.length}, utf8, null);
        Path dir = tmp.resolve("out");
        TestDatasets.write(dir, source, new long[] {2, 2}, "arrow", 1);
        Path npy = tmp.resolve("s.npy");

        CliRun run = CliRun.of("export", dir.toString(), "--npy", npy.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(header(npy)).contains("'descr': '<U3'");
        assertThat(Files.size(npy)).isEqualTo(128 + 4 * 3 * 4);
        byte[] bytes = Files.readAllBytes(npy);
        assertThat(Arrays.copyOfRange(bytes, 128, 128 + 12))
                .containsExactly('a', 0, 0, 0, 0x22, 0x6F, 0, 0, 0x00, 0xF6 - 256, 0x01, 0);
    }

    @Test
    void bfloat16IsWrittenAsItsBitsWithANote() throws Exception {
        SourceTensor source = TestDatasets.random(DType.BFLOAT16, Shape.of(3), 5, false);
        Path dir = tmp.resolve("out");
        TestDatasets.write(dir, source, new long[] {2, 3}, "arrow", 1);
        Path npy = tmp.resolve("b.npy");

        CliRun run = CliRun.of("export", dir.toString(), "--npy", npy.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.err())
                .isEqualTo(
                        "note: numpy has no bfloat16: wrote the raw bits as uint16 (<u2); view them"
                                + " with a.view(ml_dtypes.bfloat16), or as float32 with (a.astype(np.uint32) << 16).view(np.float32)\n");
        SourceTensor read = new NpyReader(SourceLimits.defaults()).read(npy);
        assertThat(read.dtype()).isEqualTo(DType.UINT16);
        assertThat(Arrays.copyOfRange(read.values(), 6, 12)).containsExactly(source.values());
    }

    @Test
    void anEmptyOutputIsAnEmptyArrayOfItsShape() throws Exception {
        Path dir = tmp.resolve("out");
        TestDatasets.write(dir, TestDatasets.floats(Shape.of(1, 3), 1), new long[] {0, 3}, "parquet", 1);
        Path npy = tmp.resolve("e.npy");

        CliRun run = CliRun.of("export", dir.toString(), "--npy", npy.toString(), "--json");

        assertThat(run.exitCode()).isZero();
        assertThat(run.json().get("bytes").asLong()).isEqualTo(128);
        SourceTensor read = new NpyReader(SourceLimits.defaults()).read(npy);
        assertThat(read.shape()).isEqualTo(Shape.of(0, 3));
        assertThat(read.dtype()).isEqualTo(DType.FLOAT32);
    }

    @Test
    void nullsAreRefusedWithTheirCountAndNoFileIsLeft() throws Exception {
        SourceTensor source = TestDatasets.random(DType.INT32, Shape.of(8), 3, true);
        Path dir = tmp.resolve("out");
        TestDatasets.write(dir, source, new long[] {3, 8}, "parquet", 2);
        Path npy = tmp.resolve("n.npy");

        CliRun run = CliRun.of("export", dir.toString(), "--npy", npy.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("Cannot export " + dir + " to .npy: 6 of its 24 elements are null and numpy"
                        + " arrays have no nulls; read the dataset with pyarrow to keep them\n");
        try (Stream<Path> files = Files.list(tmp)) {
            assertThat(files.map(path -> path.getFileName().toString())).containsExactly("out");
        }
    }

    @Test
    void incompleteDatasetsAndExistingFilesAreRefused() throws Exception {
        Path dir = tmp.resolve("out");
        TestDatasets.write(dir, TestDatasets.floats(Shape.of(1, 3), 1), new long[] {4, 3}, "arrow", 2);
        Path npy = Files.writeString(tmp.resolve("x.npy"), "keep");

        CliRun exists = CliRun.of("export", dir.toString(), "--npy", npy.toString());
        CliRun overwrite = CliRun.of("export", dir.toString(), "--npy", npy.toString(), "--overwrite");
        Files.delete(dir.resolve("_SUCCESS"));
        CliRun incomplete = CliRun.of(
                "export", dir.toString(), "--npy", tmp.resolve("y.npy").toString());

        assertThat(exists.exitCode()).isEqualTo(2);
        assertThat(exists.err())
                .isEqualTo("Cannot export to " + npy + ": the file exists; pass --overwrite to" + " replace it\n");
        assertThat(overwrite.exitCode()).isZero();
        assertThat(new NpyReader(SourceLimits.defaults()).read(npy).shape()).isEqualTo(Shape.of(4, 3));
        assertThat(incomplete.exitCode()).isEqualTo(2);
        assertThat(incomplete.err())
                .isEqualTo("Cannot export " + dir + ": the dataset is incomplete (no _SUCCESS);"
                        + " only a complete dataset can be exported\n");
        assertThat(Files.exists(tmp.resolve("y.npy"))).isFalse();
    }

    @Test
    void filesThatHoldOtherRowsThanListedAreRefused() throws Exception {
        Path dir = tmp.resolve("out");
        Manifest manifest =
                TestDatasets.write(dir, TestDatasets.floats(Shape.of(1, 3), 1), new long[] {4, 3}, "arrow", 2);
        Path first = dir.resolve("part-00000.arrow");
        Path second = dir.resolve("part-00001.arrow");
        Path swap = tmp.resolve("swap");
        Files.move(first, swap);
        Files.move(second, first);
        Files.move(swap, second);
        manifest = TestDatasets.rechecksum(dir, manifest, "part-00000.arrow");
        TestDatasets.writeManifest(dir, TestDatasets.rechecksum(dir, manifest, "part-00001.arrow"));
        Path npy = tmp.resolve("x.npy");

        CliRun run = CliRun.of("export", dir.toString(), "--npy", npy.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("Cannot export " + dir + ": cannot read part-00000.arrow: a batch starts at"
                        + " row 2, expected row 0; run verify\n");
        try (Stream<Path> files = Files.list(tmp)) {
            assertThat(files.map(path -> path.getFileName().toString())).containsExactly("out");
        }
    }

    @Test
    void aDirectoryIsNeverReplaced() throws Exception {
        Path dir = tmp.resolve("out");
        TestDatasets.write(dir, TestDatasets.floats(Shape.of(1, 3), 1), new long[] {4, 3}, "arrow", 2);
        Path target = Files.createDirectory(tmp.resolve("x.npy"));

        CliRun plain = CliRun.of("export", dir.toString(), "--npy", target.toString());
        CliRun overwrite = CliRun.of("export", dir.toString(), "--npy", target.toString(), "--overwrite");

        for (CliRun run : new CliRun[] {plain, overwrite}) {
            assertThat(run.exitCode()).isEqualTo(2);
            assertThat(run.out()).isEmpty();
            assertThat(run.err())
                    .isEqualTo(
                            "Cannot export to " + target + ": it is a directory; give the path of a" + " .npy file\n");
        }
        assertThat(Files.isDirectory(target)).isTrue();
        try (Stream<Path> files = Files.list(tmp)) {
            assertThat(files.map(path -> path.getFileName().toString())).containsExactlyInAnyOrder("out", "x.npy");
        }
    }

    @Test
    void aFileThatCannotBeCreatedIsRefusedInOneLine() throws Exception {
        Path dir = tmp.resolve("out");
        TestDatasets.write(dir, TestDatasets.floats(Shape.of(1, 3), 1), new long[] {4, 3}, "arrow", 2);
        Path target = tmp.resolve("x".repeat(300) + ".npy");

        CliRun run = CliRun.of("export", dir.toString(), "--npy", target.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err())
                .isEqualTo(
                        "Cannot export to " + target + ": cannot create a file in " + tmp + " (File name too long)\n");
    }

    @Test
    void anUnwritableDirectoryIsRefusedInOneLine() throws Exception {
        Path dir = tmp.resolve("out");
        TestDatasets.write(dir, TestDatasets.floats(Shape.of(1, 3), 1), new long[] {4, 3}, "arrow", 2);
        Path readOnly = Files.createDirectory(
                tmp.resolve("ro"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("r-xr-xr-x")));
        assumeFalse(Files.isWritable(readOnly), "permissions do not bind this user (root)");

        CliRun run = CliRun.of(
                "export", dir.toString(), "--npy", readOnly.resolve("x.npy").toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("Cannot export to " + readOnly.resolve("x.npy") + ": cannot create a file" + " in "
                        + readOnly + " (permission denied)\n");
    }

    @Test
    void theFileHasTheModeOfAnyNewFile() throws Exception {
        Path dir = tmp.resolve("out");
        TestDatasets.write(dir, TestDatasets.floats(Shape.of(1, 3), 1), new long[] {4, 3}, "arrow", 2);
        Path npy = tmp.resolve("x.npy");

        CliRun run = CliRun.of("export", dir.toString(), "--npy", npy.toString());
        Path plain = Files.createFile(tmp.resolve("plain"));

        assertThat(run.exitCode()).isZero();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(npy)))
                .isEqualTo(PosixFilePermissions.toString(Files.getPosixFilePermissions(plain)));
    }

    @Test
    void aMissingNpyOptionIsAUsageError() {
        CliRun run = CliRun.of("export", tmp.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("Missing required option: '--npy=<file>'; see 'tensor-broadcast export" + " --help'\n");
    }

    private static String header(Path npy) throws Exception {
        byte[] bytes = Files.readAllBytes(npy);
        int length = (bytes[8] & 0xFF) | (bytes[9] & 0xFF) << 8;
        assertThat((10 + length) % 64).isZero();
        return new String(bytes, 10, length, ISO_8859_1);
    }

    /** One element as comparable bytes (a bit for bool, the UTF-8 bytes for strings). */
    private static String element(SourceTensor tensor, long index) {
        int i = (int) index;
        return switch (tensor.dtype()) {
            case BOOL -> Boolean.toString((tensor.values()[i >>> 3] & (1 << (i & 7))) != 0);
            case STRING ->
                new String(
                        tensor.values(),
                        tensor.offsets()[i],
                        tensor.offsets()[i + 1] - tensor.offsets()[i],
                        java.nio.charset.StandardCharsets.UTF_8);
            default -> {
                int width = tensor.dtype().byteWidth();
                yield Arrays.toString(Arrays.copyOfRange(tensor.values(), i * width, (i + 1) * width));
            }
        };
    }
}
