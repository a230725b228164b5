package dev.tensorbroadcast.arrowio.format.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.ArrayLayout;
import dev.tensorbroadcast.arrowio.format.ArrayReader;
import dev.tensorbroadcast.arrowio.format.Compression;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.source.ArraySources;
import dev.tensorbroadcast.arrowio.source.DatasetSlices;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.SourceRows;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Arrays tensorstore wrote ({@code fixtures/zarr/tensorstore_inputs.py}, committed under
 * {@code src/test/resources/zarr/inputs}) read back value for value: every dtype, sharded and not, zstd, gzip and
 * none, the default and v2 chunk keys, big-endian chunks, an index at the shard's start, missing chunks as a
 * non-zero fill value; read whole by the reader and in row slices as a dataset's tasks read them. And what this
 * tool cannot read, refused in one line.
 */
class ZarrInputsTest {
    private static final Configuration CONF = new Configuration();

    @TempDir
    Path dir;

    private static org.apache.hadoop.fs.Path input(String name) throws Exception {
        return new org.apache.hadoop.fs.Path(ZarrInputsTest.class
                        .getResource("/zarr/inputs/" + name + "/zarr.json")
                        .toURI())
                .getParent();
    }

    private static ArrayReader open(String name) throws Exception {
        return new ZarrFormat().open(FileSystem.getLocal(CONF), input(name));
    }

    /** Element {@code i} as the fixture script writes it, little endian ({@code bool} one byte). */
    static byte[] value(DType dtype, long i) {
        ByteBuffer bytes = ByteBuffer.allocate(ArrayLayout.storedBytes(dtype)).order(ByteOrder.LITTLE_ENDIAN);
        switch (dtype) {
            case BOOL -> bytes.put((byte) (i % 3 == 0 ? 1 : 0));
            case INT8 -> bytes.put((byte) (i % 120 - 20));
            case INT16 -> bytes.putShort((short) (i % 120 - 20));
            case INT32 -> bytes.putInt((int) (i % 120 - 20));
            case INT64 -> bytes.putLong(i % 120 - 20);
            case UINT8 -> bytes.put((byte) (i % 250));
            case UINT16 -> bytes.putShort((short) (i % 250));
            case UINT32 -> bytes.putInt((int) (i % 250));
            case UINT64 -> bytes.putLong(i % 250);
            case FLOAT16 -> bytes.putShort(half(i * 0.5f - 3));
            case FLOAT32 -> bytes.putFloat(i * 0.5f - 3);
            case FLOAT64 -> bytes.putDouble(i * 0.5 - 3);
            case COMPLEX64 -> bytes.putFloat(i * 0.5f).putFloat(-i);
            case COMPLEX128 -> bytes.putDouble(i * 0.5).putDouble(-i);
            default -> throw new IllegalArgumentException(dtype.toString());
        }
        return bytes.array();
    }

    /** A float16's bits for a float it holds exactly (the fixture's small multiples of 0.5). */
    private static short half(float value) {
        if (value == 0) {
            return 0;
        }
        int bits = Float.floatToIntBits(value);
        int sign = (bits >>> 16) & 0x8000;
        int exponent = ((bits >>> 23) & 0xff) - 127 + 15;
        return (short) (sign | exponent << 10 | (bits >>> 13) & 0x3ff);
    }

    private static void assertValues(byte[] actual, DType dtype, long firstElement, long count, String what) {
        int width = ArrayLayout.storedBytes(dtype);
        assertThat(actual).as(what).hasSize((int) (count * width));
        for (long e = 0; e < count; e++) {
            byte[] element = java.util.Arrays.copyOfRange(actual, (int) (e * width), (int) ((e + 1) * width));
            assertThat(element)
                    .as("%s element %d", what, firstElement + e)
                    .containsExactly(value(dtype, firstElement + e));
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = DType.class,
            names = {"BFLOAT16", "STRING"},
            mode = EnumSource.Mode.EXCLUDE)
    void everyDtypeTensorstoreWroteReadsAsItsValues(DType dtype) throws Exception {
        ArrayReader reader = open("dtype-" + dtype.typeName());

        assertThat(reader.layout())
                .isEqualTo(new ArrayLayout(
                        Shape.of(7, 5), dtype, new long[] {3, 2}, new long[0], Compression.parse("zstd:3")));
        assertValues(reader.readSlab(0, 7), dtype, 0, 35, "whole");
        // rows 2..4 cross the chunk rows [0,3) and [3,6)
        assertValues(reader.readSlab(2, 3), dtype, 10, 15, "rows 2..4");
    }

    @ParameterizedTest
    @EnumSource(
            value = DType.class,
            names = {"BFLOAT16", "STRING"},
            mode = EnumSource.Mode.EXCLUDE)
    void everyDtypeReadsInSlicesAsADatasetOfRows(DType dtype) throws Exception {
        TensorDataset dataset = ArraySources.dataset(
                new ZarrFormat(),
                FileSystem.getLocal(CONF),
                input("dtype-" + dtype.typeName()),
                "dtype-" + dtype.typeName());

        assertThat(dataset.shape()).isEqualTo(Shape.of(7, 5));
        // one row group per chunk row: [0,3), [3,6), [6,7)
        assertThat(dataset.parts().get(0).chunks())
                .extracting(chunk -> chunk.rows())
                .containsExactly(3L, 3L, 1L);
        SourceTensor slice =
                DatasetSlices.read(dataset, new SourceRows(2, 6), CONF).tensor();
        assertThat(slice.shape()).isEqualTo(Shape.of(4, 5));
        if (dtype == DType.BOOL) {
            // a tensor holds bools as bits
            for (int e = 0; e < 20; e++) {
                boolean bit = (slice.values()[e >>> 3] >>> (e & 7) & 1) == 1;
                assertThat(bit).as("element %d", 10 + e).isEqualTo((10 + e) % 3 == 0);
            }
        } else {
            assertValues(slice.values(), dtype, 10, 20, "rows 2..5");
        }
    }

    @Test
    void missingChunksAndShardsReadAsTheFillValue() throws Exception {
        // float32 [11,6], shards [4,6] of [2,3] chunks, gzip, fill 1.5: rows 0..5 written, so shard row 1 holds two
        // empty chunk rows and shard row 2 is missing
        ArrayReader reader = open("sharded-gzip-missing");
        assertThat(reader.layout())
                .isEqualTo(new ArrayLayout(
                        Shape.of(11, 6),
                        DType.FLOAT32,
                        new long[] {2, 3},
                        new long[] {4, 6},
                        Compression.parse("gzip:5")));
        ByteBuffer values = ByteBuffer.wrap(reader.readSlab(0, 11)).order(ByteOrder.LITTLE_ENDIAN);
        for (int e = 0; e < 66; e++) {
            assertThat(values.getFloat(4 * e)).as("element %d", e).isEqualTo(e < 36 ? e * 0.5f - 3 : 1.5f);
        }
        // uint16 [9,4], the default keys with '.' (c.0.0), fill 7: rows 0..2 written, chunk rows 2..4 missing
        ArrayReader dots = open("dot-keys-missing");
        assertThat(dots.blockKeys()).containsExactly("c.0.0", "c.1.0", "c.2.0", "c.3.0", "c.4.0");
        ByteBuffer shorts = ByteBuffer.wrap(dots.readSlab(1, 8)).order(ByteOrder.LITTLE_ENDIAN);
        for (int e = 4; e < 36; e++) {
            // chunk row 1 (rows 2..3) holds row 2 as written, row 3 as the fill value (tensorstore fills it in)
            assertThat(shorts.getShort(2 * (e - 4))).as("element %d", e).isEqualTo((short) (e < 12 ? e % 250 : 7));
        }
    }

    @Test
    void v2KeysBigEndianChunksAndAnIndexAtTheShardsStartRead() throws Exception {
        ArrayReader v2 = open("v2-keys");
        assertThat(v2.blockKeys()).containsExactly("0.0", "0.1", "1.0", "1.1");
        assertValues(v2.readSlab(0, 6), DType.INT32, 0, 24, "v2 keys");
        ArrayReader slashes = open("v2-slash-keys");
        assertThat(slashes.blockKeys()).containsExactly("0/0", "1/0");
        assertValues(slashes.readSlab(0, 5), DType.INT64, 0, 20, "v2 keys with /, sharded");

        ArrayReader big = open("big-endian-index-start");
        assertThat(big.layout())
                .isEqualTo(new ArrayLayout(
                        Shape.of(5, 6),
                        DType.FLOAT64,
                        new long[] {2, 3},
                        new long[] {4, 6},
                        Compression.parse("none")));
        assertValues(big.readSlab(0, 5), DType.FLOAT64, 0, 30, "big endian, index at start, crc32c chunks");
    }

    @Test
    void aTransposeCodecIsRefusedNamingItAndWhatIsRead() {
        assertThatThrownBy(() -> open("transpose"))
                .isInstanceOf(IOException.class)
                .hasMessageEndingWith("zarr.json: codec 'transpose' (order [1,0]) in [transpose, bytes]; this tool"
                        + " reads a regular chunk_grid, the default or v2 chunk_key_encoding, and the codecs bytes"
                        + " (little or big endian), then zstd, gzip or crc32c, inside sharding_indexed or not");
    }

    @Test
    void aCorruptChunkChecksumIsRefused() throws Exception {
        Path copy = dir.resolve("copy");
        org.apache.hadoop.fs.Path source = input("big-endian-index-start");
        Path from = Path.of(source.toUri());
        try (var files = Files.walk(from)) {
            for (Path path : files.toList()) {
                Path target = copy.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target);
                }
            }
        }
        Path shard = copy.resolve("c/0/0");
        byte[] bytes = Files.readAllBytes(shard);
        bytes[bytes.length - 1] ^= 1; // the last chunk's crc32c (the index is at the start)
        Files.write(shard, bytes);

        ArrayReader reader =
                new ZarrFormat().open(FileSystem.getLocal(CONF), new org.apache.hadoop.fs.Path(copy.toUri()));
        assertThatThrownBy(() -> reader.readSlab(0, 4))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("chunk checksum mismatch");
    }

    @Test
    void otherFillValuesAndRefusalsOfZarrJson() throws Exception {
        String base = "{\"zarr_format\":3,\"node_type\":\"array\",\"shape\":[2],\"chunk_grid\":{\"name\":\"regular\","
                + "\"configuration\":{\"chunk_shape\":[2]}},\"chunk_key_encoding\":{\"name\":\"default\"},"
                + "\"codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}],";
        assertThat(meta(base + "\"data_type\":\"float32\",\"fill_value\":\"NaN\"}")
                        .fill())
                .containsExactly(0, 0, (byte) 0xc0, 0x7f);
        assertThat(meta(base + "\"data_type\":\"float64\",\"fill_value\":\"0x3ff0000000000000\"}")
                        .fill())
                .containsExactly(0, 0, 0, 0, 0, 0, (byte) 0xf0, 0x3f);
        assertThat(meta(base + "\"data_type\":\"uint64\",\"fill_value\":18446744073709551615}")
                        .fill())
                .containsExactly(-1, -1, -1, -1, -1, -1, -1, -1);
        assertThatThrownBy(() -> meta(base + "\"data_type\":\"int8\",\"fill_value\":300}"))
                .hasMessageContaining("fill_value 300 for data_type int8; this tool reads a JSON number");
        assertThatThrownBy(() ->
                        meta(base.replace("regular", "rectilinear") + "\"data_type\":\"int8\"," + "\"fill_value\":0}"))
                .hasMessageEndingWith("chunk_grid 'rectilinear'; " + ZarrMetadata.READS);
        assertThatThrownBy(() -> meta(base.replace("\"name\":\"default\"", "\"name\":\"mine\"")
                        + "\"data_type\":\"int8\",\"fill_value\":0}"))
                .hasMessageEndingWith("chunk_key_encoding 'mine'; " + ZarrMetadata.READS);
        assertThatThrownBy(() -> meta(base.replace(
                                "\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}", "\"name\":\"blosc\"")
                        + "\"data_type\":\"int8\",\"fill_value\":0}"))
                .hasMessageEndingWith("codec 'blosc' in [blosc]; " + ZarrMetadata.READS);
    }

    @Test
    void aLevelThisToolDoesNotWriteReadsAsTheCodecsDefault() throws Exception {
        String base = "{\"zarr_format\":3,\"node_type\":\"array\",\"shape\":[2],\"chunk_grid\":{\"name\":\"regular\","
                + "\"configuration\":{\"chunk_shape\":[2]}},\"chunk_key_encoding\":{\"name\":\"default\"},"
                + "\"data_type\":\"int8\",\"fill_value\":0,\"codecs\":[{\"name\":\"bytes\"},";
        // zstd's negative (fast) levels are valid Zarr; a decoder needs the codec only
        assertThat(meta(base + "{\"name\":\"zstd\",\"configuration\":{\"level\":-3}}]}")
                        .layout()
                        .compression())
                .isEqualTo(Compression.parse("zstd"));
        assertThat(meta(base + "{\"name\":\"zstd\",\"configuration\":{\"level\":7}}]}")
                        .layout()
                        .compression())
                .isEqualTo(Compression.parse("zstd:7"));
        assertThat(meta(base + "{\"name\":\"gzip\",\"configuration\":{\"level\":12}}]}")
                        .layout()
                        .compression())
                .isEqualTo(Compression.parse("gzip"));
    }

    private static ZarrMetadata meta(String json) throws IOException {
        return ZarrMetadata.read(json.getBytes(java.nio.charset.StandardCharsets.UTF_8), "zarr.json");
    }
}
