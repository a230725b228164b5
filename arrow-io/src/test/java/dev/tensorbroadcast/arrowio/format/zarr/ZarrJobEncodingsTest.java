package dev.tensorbroadcast.arrowio.format.zarr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.ArrayLayout;
import dev.tensorbroadcast.arrowio.format.Compression;
import dev.tensorbroadcast.arrowio.format.OutputCompression;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.InputBroadcast;
import dev.tensorbroadcast.planner.Shape;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Chunks encoded once per job: tasks that share the source object take the chunks the first task encoded, and the
 * objects are byte for byte those of tasks that each encode their own (a copy of the source per task shares
 * nothing), for sources that repeat across the tasks' slabs and ones that do not, for every codec, sharded or not.
 */
class ZarrJobEncodingsTest {
    @TempDir
    Path dir;

    /** Float32 values {@code i * 0.25 + 1} of {@code shape}: no value is the fill value. */
    private static byte[] values(Shape shape) {
        ByteBuffer values =
                ByteBuffer.allocate(Math.toIntExact(shape.elements() * 4)).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < shape.elements(); i++) {
            values.putFloat(i * 0.25f + 1);
        }
        return values.array();
    }

    /** Writes the array as {@code tasks} slabs of the first dim, each by its own writer; returns the reused count. */
    private long write(Path root, Shape input, Shape output, ArrayLayout layout, int tasks, boolean oneSource)
            throws IOException {
        CopyProgram program = CopyProgram.of(
                output, InputBroadcast.rightAligned(input, output.rank()).sourceStrides(output));
        SourceTensor shared = SourceTensor.fixedWidth(DType.FLOAT32, input, values(input), null);
        long rows = output.dim(0);
        long slab = layout.block()[0] * Math.max(1, rows / layout.block()[0] / tasks);
        long reused = 0;
        for (long first = 0; first < rows; first += slab) {
            SourceTensor source =
                    oneSource ? shared : SourceTensor.fixedWidth(DType.FLOAT32, input, values(input), null);
            ZarrWriter writer = new ZarrWriter(
                    TensorKernel.of(source, program),
                    layout,
                    key -> {
                        Path path = root.resolve(key);
                        Files.createDirectories(path.getParent());
                        return Files.newOutputStream(path);
                    },
                    elements -> {});
            writer.write(first, Math.min(rows, first + slab));
            reused += writer.reusedChunks();
        }
        return reused;
    }

    private static Map<String, byte[]> objects(Path root) throws IOException {
        Map<String, byte[]> objects = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                objects.put(root.relativize(file).toString(), Files.readAllBytes(file));
            }
        }
        return objects;
    }

    @ParameterizedTest(name = "{0} -> [12,6,4], {1} level {2}, shard rows {3}")
    @CsvSource({
        "'1,6,4', zstd, 3, 0", "'1,6,4', gzip, 5, 0", "'1,6,4', none, 0, 0", "'1,6,4', zstd, 0, 4",
        "'12,6,4', zstd, 3, 0", "'12,6,4', gzip, 0, 0", "'12,6,4', none, 0, 0", "'12,6,4', zstd, 0, 4",
        "'6,4', zstd, 3, 0", "'6,1', zstd, 3, 4"
    })
    void tasksSharingTheSourceWriteTheObjectsTasksOfTheirOwnWrite(String input, String codec, int level, int shardRows)
            throws Exception {
        Shape in =
                Shape.of(Stream.of(input.split(",")).mapToLong(Long::parseLong).toArray());
        Shape out = Shape.of(12, 6, 4);
        long[] shard = shardRows == 0 ? new long[0] : new long[] {shardRows, 6, 4};
        // chunks of 2 rows: 6 chunk rows; 3 tasks of 2 chunk rows each (a shard of 4 rows in 3 tasks: 3 shards)
        ArrayLayout layout = new ArrayLayout(
                out,
                DType.FLOAT32,
                new long[] {2, 3, 4},
                shard,
                new Compression(OutputCompression.parse(codec), level));

        long reusedShared = write(dir.resolve("shared"), in, out, layout, 3, true);
        long reusedOwn = write(dir.resolve("own"), in, out, layout, 3, false);

        Map<String, byte[]> shared = objects(dir.resolve("shared"));
        Map<String, byte[]> own = objects(dir.resolve("own"));
        assertThat(shared.keySet()).isEqualTo(own.keySet()).isNotEmpty();
        for (String key : own.keySet()) {
            assertThat(shared.get(key)).as(key).isEqualTo(own.get(key));
        }
        // uncompressed chunks are not held for the job (they cost only their fill)
        boolean repeatsAlongRows = in.dim(0) == 1 || in.rank() < out.rank();
        if (repeatsAlongRows && !codec.equals("none")) {
            // the later tasks took the first task's chunks: more reuse than tasks of their own have
            assertThat(reusedShared).isGreaterThan(reusedOwn);
        } else {
            assertThat(reusedShared).isEqualTo(reusedOwn);
        }
        if (!repeatsAlongRows) {
            assertThat(reusedShared).isZero();
        }
    }
}
