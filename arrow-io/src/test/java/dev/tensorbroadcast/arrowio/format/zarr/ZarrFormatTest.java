package dev.tensorbroadcast.arrowio.format.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.luben.zstd.Zstd;
import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.ArrayLayout;
import dev.tensorbroadcast.arrowio.format.ArrayReader;
import dev.tensorbroadcast.arrowio.format.Compression;
import dev.tensorbroadcast.arrowio.source.TensorFileFormats;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.InputBroadcast;
import dev.tensorbroadcast.planner.Shape;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our Zarr v3 bytes, checked directly (no Python): zarr.json's fields, the chunk keys, decoded chunk values with the
 * fill value at the edges, a shard's index and its CRC-32C; and an array tensorstore wrote, read by our reader.
 */
class ZarrFormatTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** A float32 [1,6] source (values 0.5, 1.5, ...) broadcast to {@code output}. */
    private static TensorKernel floats(Shape output) {
        ByteBuffer values = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 6; i++) {
            values.putFloat(i + 0.5f);
        }
        SourceTensor source = SourceTensor.fixedWidth(DType.FLOAT32, Shape.of(1, 6), values.array(), null);
        return TensorKernel.of(source, program(Shape.of(1, 6), output));
    }

    private static CopyProgram program(Shape input, Shape output) {
        return CopyProgram.of(
                output, InputBroadcast.rightAligned(input, output.rank()).sourceStrides(output));
    }

    private void write(TensorKernel kernel, ArrayLayout layout, long first, long end) throws IOException {
        new ZarrFormat()
                .write(
                        kernel,
                        layout,
                        first,
                        end,
                        key -> {
                            Path path = dir.resolve(key);
                            Files.createDirectories(path.getParent());
                            return Files.newOutputStream(path);
                        },
                        elements -> {});
        Files.write(dir.resolve("zarr.json"), new ZarrFormat().metadata(layout));
    }

    private List<String> keys() throws IOException {
        try (Stream<Path> files = Files.walk(dir.resolve("c"))) {
            return files.filter(Files::isRegularFile)
                    .map(path -> dir.relativize(path).toString())
                    .sorted()
                    .toList();
        }
    }

    @Test
    void chunksAreZstdFramesOfLittleEndianValuesKeyedByTheirGridPlace() throws Exception {
        ArrayLayout layout = new ArrayLayout(
                Shape.of(5, 6), DType.FLOAT32, new long[] {2, 4}, new long[0], Compression.parse("zstd:5"));
        write(floats(Shape.of(5, 6)), layout, 0, 5);

        assertThat(keys()).containsExactly("c/0/0", "c/0/1", "c/1/0", "c/1/1", "c/2/0", "c/2/1");
        JsonNode json = JSON.readTree(dir.resolve("zarr.json").toFile());
        assertThat(json.get("zarr_format").asInt()).isEqualTo(3);
        assertThat(json.get("node_type").asText()).isEqualTo("array");
        assertThat(json.get("shape").toString()).isEqualTo("[5,6]");
        assertThat(json.get("data_type").asText()).isEqualTo("float32");
        assertThat(json.at("/chunk_grid/name").asText()).isEqualTo("regular");
        assertThat(json.at("/chunk_grid/configuration/chunk_shape").toString()).isEqualTo("[2,4]");
        assertThat(json.at("/chunk_key_encoding/name").asText()).isEqualTo("default");
        assertThat(json.at("/chunk_key_encoding/configuration/separator").asText())
                .isEqualTo("/");
        assertThat(json.get("fill_value").asDouble()).isEqualTo(0.0);
        assertThat(json.at("/codecs/0/name").asText()).isEqualTo("bytes");
        assertThat(json.at("/codecs/0/configuration/endian").asText()).isEqualTo("little");
        assertThat(json.at("/codecs/1/name").asText()).isEqualTo("zstd");
        assertThat(json.at("/codecs/1/configuration/level").asInt()).isEqualTo(5);

        // the corner chunk: row 4 and columns 4..5 hold values, the rest of its 2x4 cells the fill value
        byte[] frame = Files.readAllBytes(dir.resolve("c/2/1"));
        ByteBuffer chunk = ByteBuffer.wrap(Zstd.decompress(frame, 32)).order(ByteOrder.LITTLE_ENDIAN);
        float[] expected = {4.5f, 5.5f, 0, 0, 0, 0, 0, 0};
        for (int i = 0; i < 8; i++) {
            assertThat(chunk.getFloat(4 * i)).as("cell %d", i).isEqualTo(expected[i]);
        }
    }

    @Test
    void aShardEndsWithItsIndexAndTheIndexCrc32c() throws Exception {
        ArrayLayout layout = new ArrayLayout(
                Shape.of(5, 6), DType.FLOAT32, new long[] {2, 3}, new long[] {4, 6}, Compression.parse("none"));
        write(floats(Shape.of(5, 6)), layout, 0, 5);

        assertThat(keys()).containsExactly("c/0/0", "c/1/0");
        JsonNode json = JSON.readTree(dir.resolve("zarr.json").toFile());
        assertThat(json.at("/chunk_grid/configuration/chunk_shape").toString()).isEqualTo("[4,6]");
        assertThat(json.at("/codecs/0/name").asText()).isEqualTo("sharding_indexed");
        assertThat(json.at("/codecs/0/configuration/chunk_shape").toString()).isEqualTo("[2,3]");
        assertThat(json.at("/codecs/0/configuration/index_codecs/1/name").asText())
                .isEqualTo("crc32c");
        assertThat(json.at("/codecs/0/configuration/index_location").asText()).isEqualTo("end");

        // the second shard holds row 4: chunks (2,0) and (2,1) of 24 bytes each; (3,0), (3,1) lie outside: empty
        byte[] shard = Files.readAllBytes(dir.resolve("c/1/0"));
        assertThat(shard).hasSize(2 * 24 + 4 * 16 + 4);
        ByteBuffer index = ByteBuffer.wrap(shard, 48, 68).slice().order(ByteOrder.LITTLE_ENDIAN);
        assertThat(new long[] {
                    index.getLong(0),
                    index.getLong(8),
                    index.getLong(16),
                    index.getLong(24),
                    index.getLong(32),
                    index.getLong(40),
                    index.getLong(48),
                    index.getLong(56)
                })
                .containsExactly(0, 24, 24, 24, -1, -1, -1, -1);
        CRC32C crc = new CRC32C();
        crc.update(shard, 48, 64);
        assertThat(index.getInt(64)).isEqualTo((int) crc.getValue());
        ByteBuffer values = ByteBuffer.wrap(shard, 24, 24).slice().order(ByteOrder.LITTLE_ENDIAN);
        assertThat(values.getFloat(0)).isEqualTo(3.5f); // chunk (2,1): row 4, columns 3..5
        assertThat(values.getFloat(8)).isEqualTo(5.5f);
        assertThat(values.getFloat(12)).isEqualTo(0f); // row 5 is outside the array: the fill value

        ArrayReader reader = new ZarrFormat()
                .open(FileSystem.getLocal(new Configuration()), new org.apache.hadoop.fs.Path(dir.toUri()));
        ByteBuffer slab = ByteBuffer.wrap(reader.readSlab(3, 2)).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 12; i++) {
            assertThat(slab.getFloat(4 * i)).as("element %d", i).isEqualTo(i % 6 + 0.5f);
        }
    }

    @Test
    void boolTakesOneByteAnElement() throws Exception {
        SourceTensor source = SourceTensor.fixedWidth(DType.BOOL, Shape.of(3), new byte[] {0b101}, null);
        ArrayLayout layout =
                new ArrayLayout(Shape.of(2, 3), DType.BOOL, new long[] {2, 3}, new long[0], Compression.parse("none"));
        write(TensorKernel.of(source, program(Shape.of(3), Shape.of(2, 3))), layout, 0, 2);

        assertThat(Files.readAllBytes(dir.resolve("c/0/0"))).containsExactly(1, 0, 1, 1, 0, 1);
        assertThat(JSON.readTree(dir.resolve("zarr.json").toFile())
                        .get("fill_value")
                        .asBoolean())
                .isFalse();
    }

    @Test
    void aTaskWritesOnlyTheBlocksOfItsSlab() throws Exception {
        ArrayLayout layout = new ArrayLayout(
                Shape.of(5, 6), DType.FLOAT32, new long[] {2, 6}, new long[0], Compression.parse("none"));
        write(floats(Shape.of(5, 6)), layout, 2, 4);

        assertThat(keys()).containsExactly("c/1/0");
    }

    @Test
    void anArrayTensorstoreWroteReadsAsItsValues() throws Exception {
        // written by fixtures/zarr/check_tensorstore.py --resource: int16 [5,6], arange(30) * 7 - 50, sharded [4,6]
        // of [2,3] chunks, zstd, a crc32c shard index
        org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path(getClass()
                        .getResource("/zarr/tensorstore-int16/zarr.json")
                        .toURI())
                .getParent();
        ArrayReader reader = new ZarrFormat().open(FileSystem.getLocal(new Configuration()), root);

        assertThat(reader.layout())
                .isEqualTo(new ArrayLayout(
                        Shape.of(5, 6),
                        DType.INT16,
                        new long[] {2, 3},
                        new long[] {4, 6},
                        Compression.parse("zstd:3")));
        ByteBuffer values = ByteBuffer.wrap(reader.readSlab(0, 5)).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 30; i++) {
            assertThat(values.getShort(2 * i)).as("element %d", i).isEqualTo((short) (i * 7 - 50));
        }
    }

    @Test
    void aCorruptShardIndexIsRefusedByItsChecksum() throws Exception {
        ArrayLayout layout = new ArrayLayout(
                Shape.of(4, 6), DType.FLOAT32, new long[] {2, 3}, new long[] {4, 6}, Compression.parse("none"));
        write(floats(Shape.of(4, 6)), layout, 0, 4);
        byte[] shard = Files.readAllBytes(dir.resolve("c/0/0"));
        shard[shard.length - 10] ^= 1;
        Files.write(dir.resolve("c/0/0"), shard);

        ArrayReader reader = new ZarrFormat()
                .open(FileSystem.getLocal(new Configuration()), new org.apache.hadoop.fs.Path(dir.toUri()));
        assertThatThrownBy(() -> reader.readSlab(0, 4))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("shard index checksum mismatch");
    }

    @Test
    void chunksTheProgramProvesEqualAreCompressedOnce() throws Exception {
        ArrayLayout layout = new ArrayLayout(
                Shape.of(8, 6), DType.FLOAT32, new long[] {2, 3}, new long[0], Compression.parse("zstd"));
        ZarrWriter repeated = new ZarrWriter(
                floats(Shape.of(8, 6)),
                layout,
                key -> {
                    Path path = dir.resolve("repeated").resolve(key);
                    Files.createDirectories(path.getParent());
                    return Files.newOutputStream(path);
                },
                elements -> {});
        repeated.write(0, 8);
        // 4 chunk rows of 2 places: the first row is compressed, the 3 others take its bytes, place by place
        assertThat(repeated.reusedChunks()).isEqualTo(6);
        assertThat(Files.readAllBytes(dir.resolve("repeated/c/3/1")))
                .isEqualTo(Files.readAllBytes(dir.resolve("repeated/c/0/1")));

        // a source of distinct rows: nothing is proven equal, every chunk is compressed
        ByteBuffer values = ByteBuffer.allocate(8 * 6 * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 48; i++) {
            values.putFloat(i);
        }
        SourceTensor distinct = SourceTensor.fixedWidth(DType.FLOAT32, Shape.of(8, 6), values.array(), null);
        ZarrWriter copied = new ZarrWriter(
                TensorKernel.of(distinct, program(Shape.of(8, 6), Shape.of(8, 6))),
                layout,
                key -> {
                    Path path = dir.resolve("copied").resolve(key);
                    Files.createDirectories(path.getParent());
                    return Files.newOutputStream(path);
                },
                elements -> {});
        copied.write(0, 8);
        assertThat(copied.reusedChunks()).isZero();
    }

    @Test
    void aZstdChunkOfARepeatedRowIsNoLargerThanTensorstores() throws Exception {
        ByteBuffer row = ByteBuffer.allocate(4096 * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 4096; i++) {
            row.putFloat(i);
        }
        SourceTensor source = SourceTensor.fixedWidth(DType.FLOAT32, Shape.of(1, 4096), row.array(), null);
        Shape output = Shape.of(2048, 4096);
        ArrayLayout layout = new ArrayLayout(
                output, DType.FLOAT32, new long[] {2048, 4096}, new long[0], Compression.parse("zstd:3"));
        write(TensorKernel.of(source, program(Shape.of(1, 4096), output)), layout, 0, 2048);

        // tensorstore 0.1.85 writes this array (np.arange(4096, dtype=float32) broadcast to [2048,4096], one chunk,
        // zstd level 3) as a chunk object of 16,231 bytes; a one-shot zstd 1.5.7 frame is 55,093 (see ZstdFrames)
        byte[] frame = Files.readAllBytes(dir.resolve("c/0/0"));
        assertThat(frame.length).isLessThanOrEqualTo(16_231);
        byte[] chunk = Zstd.decompress(frame, 2048 * 4096 * 4);
        for (int r = 0; r < 2048; r += 511) {
            assertThat(ByteBuffer.wrap(chunk, r * row.capacity(), row.capacity()))
                    .as("row %d", r)
                    .isEqualTo(ByteBuffer.wrap(row.array()));
        }
    }

    @Test
    void zstdChunksOfARandomRowAreNoLargerThanTheObjectsTensorstoreWroteForThem() throws Exception {
        // written by fixtures/zarr/tensorstore_repeated_row.py: a float32 row of 4096 standard-normal values broadcast
        // to [1024,4096], chunks [512,4096], zstd level 3 (issue 42's case in small; tensorstore 0.1.85 writes each
        // chunk as 16,602 bytes, zstd 1.5.7's one-shot frame is 26,088)
        Path theirs = Path.of(getClass()
                        .getResource("/zarr/tensorstore-repeated-row/zarr.json")
                        .toURI())
                .getParent();
        ArrayReader reader = new ZarrFormat()
                .open(FileSystem.getLocal(new Configuration()), new org.apache.hadoop.fs.Path(theirs.toUri()));
        ArrayLayout layout = reader.layout();
        assertThat(layout)
                .isEqualTo(new ArrayLayout(
                        Shape.of(1024, 4096),
                        DType.FLOAT32,
                        new long[] {512, 4096},
                        new long[0],
                        Compression.parse("zstd:3")));
        byte[] values = reader.readSlab(0, 1024);
        byte[] row = Arrays.copyOf(values, 4096 * 4);
        for (int r = 1; r < 1024; r++) {
            assertThat(ByteBuffer.wrap(values, r * row.length, row.length))
                    .as("row %d", r)
                    .isEqualTo(ByteBuffer.wrap(row));
        }

        SourceTensor source = SourceTensor.fixedWidth(DType.FLOAT32, Shape.of(1, 4096), row, null);
        write(TensorKernel.of(source, program(Shape.of(1, 4096), layout.shape())), layout, 0, 1024);

        for (String key : List.of("c/0/0", "c/1/0")) {
            byte[] frame = Files.readAllBytes(dir.resolve(key));
            assertThat(frame.length).as(key).isLessThanOrEqualTo((int) Files.size(theirs.resolve(key)));
            assertThat(Zstd.decompress(frame, 512 * row.length)).isEqualTo(Arrays.copyOf(values, 512 * row.length));
        }
    }

    @Test
    void theRegistryKnowsZarrAsAnArrayFormat() {
        assertThat(TensorFileFormats.arrayFormats()).containsExactly(new ZarrFormat());
        assertThat(new ZarrFormat().whyNotStored(DType.BFLOAT16))
                .get()
                .asString()
                .contains("no bfloat16");
    }
}
