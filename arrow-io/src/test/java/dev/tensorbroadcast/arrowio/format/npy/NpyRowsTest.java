package dev.tensorbroadcast.arrowio.format.npy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.arrowio.format.SourceLimits;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.SourceRows;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Rows of numpy-written {@code .npy} files read in place, against the whole file read onto the heap. */
class NpyRowsTest {
    private static final NpyReader READER = new NpyReader(SourceLimits.defaults());

    @TempDir
    Path dir;

    private static Optional<NpyLayout> layout(Path file) throws Exception {
        try (InputStream in = Files.newInputStream(file)) {
            return NpyReader.layout(file.getFileName().toString(), in, Files.size(file));
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "float32.npy",
                "int16_be.npy",
                "complex128_be.npy",
                "float16_be.npy",
                "version2.npy",
                "uint64.npy",
                "version3.npy"
            })
    void everyRowRangeHoldsTheBytesTheWholeFileHas(String name) throws Exception {
        Path file = NpyFixturesTest.dir().resolve(name);
        SourceTensor whole = READER.read(file);
        NpyLayout layout = layout(file).orElseThrow();
        assertThat(layout.shape()).isEqualTo(whole.shape());
        assertThat(layout.dtype()).isEqualTo(whole.dtype());
        FileSystem local = FileSystem.getLocal(new Configuration());
        org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.toUri());
        int rowBytes = (int) layout.rowBytes();
        for (long first = 0; first < layout.rows(); first++) {
            for (long end = first + 1; end <= layout.rows(); end++) {
                SourceTensor rows = NpyRows.read(local, path, layout, new SourceRows(first, end));
                assertThat(rows.shape().dim(0)).isEqualTo(end - first);
                assertThat(rows.values())
                        .as("rows %d..%d", first, end)
                        .isEqualTo(Arrays.copyOfRange(whole.values(), (int) first * rowBytes, (int) end * rowBytes));
            }
        }
    }

    /**
     * A local file is read through its own channel: the right bytes, without Hadoop's stream (whose statistics
     * count every byte read through it), and a file cut short after its header was read reads as changed.
     */
    @Test
    void aLocalFileIsReadThroughItsChannel() throws Exception {
        Path file = Files.copy(NpyFixturesTest.dir().resolve("float32.npy"), dir.resolve("rows.npy"));
        SourceTensor whole = READER.read(file);
        NpyLayout layout = layout(file).orElseThrow();
        FileSystem local = FileSystem.getLocal(new Configuration());
        long before = localBytesRead();
        org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.toUri());
        assertThat(NpyRows.read(local, path, layout, new SourceRows(0, layout.rows()))
                        .values())
                .isEqualTo(whole.values());
        assertThat(localBytesRead()).isEqualTo(before);
        try (java.nio.channels.FileChannel cut =
                java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
            cut.truncate(Files.size(file) - 4);
        }
        assertThatThrownBy(() -> NpyRows.read(local, path, layout, new SourceRows(0, layout.rows())))
                .isInstanceOf(SourceFormatException.class)
                .hasMessageContaining(
                        "the file ends before row " + (layout.rows() - 1) + "; it was changed while being read");
    }

    /** What Hadoop's streams of local files have read in this JVM. */
    @SuppressWarnings("deprecation")
    private static long localBytesRead() {
        return FileSystem.getAllStatistics().stream()
                .filter(statistics -> statistics.getScheme().equals("file"))
                .mapToLong(FileSystem.Statistics::getBytesRead)
                .sum();
    }

    /** A local file with a Hadoop checksum beside it is read through Hadoop, which verifies it. */
    @Test
    void aLocalFileWithAChecksumIsStillVerified() throws Exception {
        byte[] bytes = Files.readAllBytes(NpyFixturesTest.dir().resolve("float32.npy"));
        FileSystem local = FileSystem.getLocal(new Configuration());
        org.apache.hadoop.fs.Path path =
                new org.apache.hadoop.fs.Path(dir.resolve("checked.npy").toUri());
        try (var out = local.create(path)) {
            out.write(bytes);
        }
        assertThat(Files.exists(dir.resolve(".checked.npy.crc"))).isTrue();
        NpyLayout layout = layout(dir.resolve("checked.npy")).orElseThrow();
        bytes[bytes.length - 1] ^= 0x40;
        Files.write(dir.resolve("checked.npy"), bytes);
        assertThatThrownBy(() -> NpyRows.read(local, path, layout, new SourceRows(0, layout.rows())))
                .isInstanceOf(org.apache.hadoop.fs.ChecksumException.class);
    }

    @Test
    void aScalarIsOneRow() throws Exception {
        Path file = NpyFixturesTest.dir().resolve("scalar_f8.npy");
        NpyLayout layout = layout(file).orElseThrow();
        assertThat(layout.rows()).isEqualTo(1);
        SourceTensor row = NpyRows.read(
                FileSystem.getLocal(new Configuration()),
                new org.apache.hadoop.fs.Path(file.toUri()),
                layout,
                new SourceRows(0, 1));
        assertThat(row.shape()).isEqualTo(Shape.scalar());
        assertThat(row.values()).isEqualTo(READER.read(file).values());
    }

    @Test
    void fortranOrderBoolsAndStringsAreNotReadInPlace() throws Exception {
        for (String name : new String[] {"fortran_f4.npy", "bool.npy", "unicode.npy", "bytes.npy"}) {
            assertThat(layout(NpyFixturesTest.dir().resolve(name))).as(name).isEmpty();
        }
        // rank 1 has no order to speak of
        assertThat(layout(NpyFixturesTest.dir().resolve("complex64.npy"))
                        .orElseThrow()
                        .dtype())
                .isEqualTo(DType.COMPLEX64);
    }

    @Test
    void aFileWhoseLengthDisagreesWithItsHeaderIsRefused() throws Exception {
        byte[] bytes = Files.readAllBytes(NpyFixturesTest.dir().resolve("float32.npy"));
        Path cut = Files.write(dir.resolve("cut.npy"), Arrays.copyOf(bytes, bytes.length - 4));
        assertThatThrownBy(() -> layout(cut))
                .isInstanceOf(SourceFormatException.class)
                .hasMessageContaining(
                        "the header declares 8 float32 elements (32 bytes) but the file has 28 bytes of" + " data");
    }
}
