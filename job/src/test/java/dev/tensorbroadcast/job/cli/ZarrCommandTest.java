package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.ArrayReader;
import dev.tensorbroadcast.arrowio.format.SourceLimits;
import dev.tensorbroadcast.arrowio.format.npy.NpyReader;
import dev.tensorbroadcast.arrowio.source.DatasetFixtures;
import dev.tensorbroadcast.arrowio.source.TensorFileFormats;
import dev.tensorbroadcast.job.base.Crc32c;
import dev.tensorbroadcast.job.dataset.TestDatasets;
import dev.tensorbroadcast.job.manifest.DatasetFile;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.pipeline.DatasetFiles;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code expand --format zarr} end to end on Spark: the chunk (or shard) objects the tasks wrote, {@code zarr.json}
 * and the manifest the driver wrote after them, {@code verify} over them, and the refusals of what Zarr cannot honour.
 */
class ZarrCommandTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private List<String> objects(Path zarr) throws Exception {
        try (Stream<Path> files = Files.walk(zarr.resolve("c"))) {
            return files.filter(Files::isRegularFile)
                    .map(path -> zarr.relativize(path).toString())
                    .sorted()
                    .toList();
        }
    }

    @Test
    void shardsOfChunksAreWrittenByTasksAndListedWithTheirChecksums() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("a.npy"), new long[] {1, 6});
        Path zarr = dir.resolve("out.zarr");

        CliRun run = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "[10,6]",
                "--format",
                "zarr",
                "--chunks",
                "3,4",
                "--shard",
                "6,4",
                "--compression",
                "zstd:5",
                "--output",
                zarr.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).contains("writing [10,6] int32 (240 B) as a zarr array in 2 tasks to ");
        assertThat(objects(zarr)).containsExactly("c/0/0", "c/0/1", "c/1/0", "c/1/1");
        JsonNode json = JSON.readTree(zarr.resolve("zarr.json").toFile());
        assertThat(json.get("data_type").asText()).isEqualTo("int32");
        assertThat(json.get("shape").toString()).isEqualTo("[10,6]");
        assertThat(json.at("/chunk_grid/configuration/chunk_shape").toString()).isEqualTo("[6,4]");
        assertThat(json.at("/codecs/0/configuration/chunk_shape").toString()).isEqualTo("[3,4]");
        assertThat(json.at("/codecs/0/configuration/codecs/1/configuration/level")
                        .asInt())
                .isEqualTo(5);
        // shards of 6 rows: two partitions, one shard row each
        Manifest manifest = DatasetFiles.manifest(zarr);
        assertThat(manifest.format()).isEqualTo("zarr");
        assertThat(manifest.partitions()).isEqualTo(2);
        assertThat(manifest.files().stream().map(DatasetFile::path))
                .containsExactly("c/0/0", "c/0/1", "c/1/0", "c/1/1", "zarr.json");
        for (DatasetFile file : manifest.files()) {
            assertThat(file.crc32c())
                    .as(file.path())
                    .isEqualTo(Crc32c.of(
                            FileSystem.getLocal(new Configuration()),
                            new org.apache.hadoop.fs.Path(
                                    zarr.resolve(file.path()).toUri())));
        }
        assertThat(manifest.files().get(2).firstRow()).isEqualTo(6);

        ArrayReader reader = TensorFileFormats.arrayFormats()
                .get(0)
                .open(FileSystem.getLocal(new Configuration()), new org.apache.hadoop.fs.Path(zarr.toUri()));
        ByteBuffer values = ByteBuffer.wrap(reader.readSlab(0, 10)).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 60; i++) {
            assertThat(values.getInt(4 * i)).as("element %d", i).isEqualTo(NpyFiles.value(i % 6));
        }

        CliRun verify = CliRun.of("verify", zarr.toString(), "--source", source.toString());
        assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
        assertThat(verify.out()).contains("5 files", "60 values match the source");
        CliRun inspect = CliRun.of("inspect", zarr.toString());
        assertThat(inspect.exitCode()).as(inspect.out() + inspect.err()).isZero();
        assertThat(inspect.out()).doesNotContain("stray");

        // export reads the array back into one .npy: the broadcast, row by row
        Path npy = dir.resolve("back.npy");
        CliRun export = CliRun.of("export", zarr.toString(), "--npy", npy.toString());
        assertThat(export.exitCode()).as(export.err()).isZero();
        SourceTensor exported = new NpyReader(SourceLimits.defaults()).read(npy);
        assertThat(exported.shape()).isEqualTo(Shape.of(10, 6));
        ByteBuffer data = ByteBuffer.wrap(Files.readAllBytes(npy)).order(ByteOrder.LITTLE_ENDIAN);
        int start = (int) (Files.size(npy) - 60 * 4);
        for (int i = 0; i < 60; i++) {
            assertThat(data.getInt(start + 4 * i)).as("exported element %d", i).isEqualTo(NpyFiles.value(i % 6));
        }

        // a flipped byte in one chunk object: its CRC-32C and its values say so
        Path chunk = zarr.resolve("c/1/1");
        byte[] bytes = Files.readAllBytes(chunk);
        bytes[0] ^= 1;
        Files.write(chunk, bytes);
        CliRun corrupt = CliRun.of("verify", zarr.toString(), "--source", source.toString());
        assertThat(corrupt.exitCode()).isEqualTo(1);
        assertThat(corrupt.out()).contains("c/1/1: checksum mismatch");
    }

    /** InjectedFailure's hooks: the first {@code attempts} attempts of partition 0 fail after writing. */
    private static void failPartitionZero(String attempts) {
        org.apache.spark.SparkContext context = SPARK.session().sparkContext();
        context.setLocalProperty("tensorbroadcast.test.failPartition", attempts == null ? null : "0");
        context.setLocalProperty("tensorbroadcast.test.failAttempts", attempts);
    }

    @Test
    void aRetriedTaskWritesOverTheChunksItsFailedAttemptLeftInPlace() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("a.npy"), new long[] {1, 6});
        Path zarr = dir.resolve("out.zarr");

        // the first attempt of partition 0 writes its chunks where they live, then fails before its commit
        failPartitionZero("1");
        CliRun run;
        try {
            run = CliRun.of(
                    "expand",
                    "--input",
                    source.toString(),
                    "--dialect",
                    "numpy",
                    "--shape",
                    "[10,6]",
                    "--format",
                    "zarr",
                    "--chunks",
                    "2,6",
                    "--compression",
                    "zstd",
                    "--partitions",
                    "2",
                    "--output",
                    zarr.toString());
        } finally {
            failPartitionZero(null);
        }

        assertThat(run.exitCode()).as(run.err()).isZero();
        // one object per key, no staging directory, and the manifest's checksums are the objects'
        assertThat(objects(zarr)).containsExactly("c/0/0", "c/1/0", "c/2/0", "c/3/0", "c/4/0");
        assertThat(DatasetFiles.names(zarr)).containsExactlyInAnyOrder("_SUCCESS", "_manifest.json", "c", "zarr.json");
        CliRun verify = CliRun.of("verify", zarr.toString(), "--source", source.toString());
        assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
        assertThat(verify.out()).contains("checksums match", "60 values match the source");
    }

    @Test
    void aFailedJobLeavesNoChunksOfANewArray() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("a.npy"), new long[] {1, 6});
        Path zarr = dir.resolve("out.zarr");

        failPartitionZero("all");
        CliRun run;
        try {
            run = CliRun.of(
                    "expand",
                    "--input",
                    source.toString(),
                    "--dialect",
                    "numpy",
                    "--shape",
                    "[10,6]",
                    "--format",
                    "zarr",
                    "--chunks",
                    "5,6",
                    "--partitions",
                    "2",
                    "--output",
                    zarr.toString());
        } finally {
            failPartitionZero(null);
        }

        assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
        assertThat(run.err()).contains("injected failure in partition 0");
        assertThat(zarr.resolve("c")).doesNotExist();
        assertThat(zarr.resolve("zarr.json")).doesNotExist();
    }

    @Test
    void gzipChunksAndDimensionNamesAreWrittenAsZarrV3SaysThem() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("a.npy"), new long[] {1, 6});
        Path zarr = dir.resolve("out.zarr");

        CliRun run = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "[10,6]",
                "--format",
                "zarr",
                "--chunks",
                "5,3",
                "--compression",
                "gzip:7",
                "--dimension-names",
                "time,x",
                "--output",
                zarr.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode json = JSON.readTree(zarr.resolve("zarr.json").toFile());
        assertThat(json.at("/codecs/1/name").asText()).isEqualTo("gzip");
        assertThat(json.at("/codecs/1/configuration/level").asInt()).isEqualTo(7);
        assertThat(json.get("dimension_names").toString()).isEqualTo("[\"time\",\"x\"]");
        // a gzip member (RFC 1952) per chunk, as Zarr v3's gzip codec is
        byte[] chunk = Files.readAllBytes(zarr.resolve("c/1/1"));
        assertThat(chunk[0] & 0xff).isEqualTo(0x1f);
        assertThat(chunk[1] & 0xff).isEqualTo(0x8b);
        ByteBuffer decoded = ByteBuffer.wrap(
                        new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(chunk)).readAllBytes())
                .order(ByteOrder.LITTLE_ENDIAN);
        assertThat(decoded.capacity()).isEqualTo(5 * 3 * 4);
        assertThat(decoded.getInt(0)).isEqualTo(NpyFiles.value(3));
        assertThat(DatasetFiles.manifest(zarr).compression()).isEqualTo("gzip:7");
        CliRun verify = CliRun.of("verify", zarr.toString(), "--source", source.toString());
        assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
        assertThat(verify.out()).contains("60 values match the source");
    }

    @Test
    void chunksOfTheFillValueAreNotWrittenAndReadAsZeros() throws Exception {
        // a column [0, 3, 0, 0] broadcast over 6 columns: rows 0, 2 and 3 are zeros, the fill value
        ByteBuffer column = ByteBuffer.allocate(16)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(0)
                .putInt(3)
                .putInt(0)
                .putInt(0);
        Path source = NpyFiles.write(dir.resolve("col.npy"), "<i4", new long[] {4, 1}, column.array());
        Path chunked = dir.resolve("chunked.zarr");
        Path sharded = dir.resolve("sharded.zarr");

        CliRun chunks = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "[4,6]",
                "--format",
                "zarr",
                "--chunks",
                "1,6",
                "--compression",
                "zstd",
                "--partitions",
                "2",
                "--output",
                chunked.toString());
        CliRun shards = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "[4,6]",
                "--format",
                "zarr",
                "--chunks",
                "1,6",
                "--shard",
                "2,6",
                "--partitions",
                "2",
                "--output",
                sharded.toString());

        assertThat(chunks.exitCode()).as(chunks.err()).isZero();
        assertThat(shards.exitCode()).as(shards.err()).isZero();
        // one object per chunk that holds a value other than zero; the manifest lists what was written
        assertThat(objects(chunked)).containsExactly("c/1/0");
        assertThat(DatasetFiles.manifest(chunked).files().stream().map(DatasetFile::path))
                .containsExactly("c/1/0", "zarr.json");
        // the second shard holds only zeros: not written; the first marks its chunk 0 empty in its index
        assertThat(objects(sharded)).containsExactly("c/0/0");
        ByteBuffer shard =
                ByteBuffer.wrap(Files.readAllBytes(sharded.resolve("c/0/0"))).order(ByteOrder.LITTLE_ENDIAN);
        int index = shard.capacity() - 2 * 16 - 4;
        assertThat(shard.getLong(index)).isEqualTo(-1L);
        assertThat(shard.getLong(index + 8)).isEqualTo(-1L);
        assertThat(shard.getLong(index + 16)).isZero();
        for (Path zarr : List.of(chunked, sharded)) {
            ArrayReader reader = TensorFileFormats.arrayFormats()
                    .get(0)
                    .open(FileSystem.getLocal(new Configuration()), new org.apache.hadoop.fs.Path(zarr.toUri()));
            ByteBuffer values = ByteBuffer.wrap(reader.readSlab(0, 4)).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < 24; i++) {
                assertThat(values.getInt(4 * i)).as("%s element %d", zarr, i).isEqualTo(i / 6 == 1 ? 3 : 0);
            }
            CliRun verify = CliRun.of("verify", zarr.toString(), "--source", source.toString());
            assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
            assertThat(verify.out()).contains("24 values match the source");
            Path npy = dir.resolve(zarr.getFileName() + ".npy");
            CliRun export = CliRun.of("export", zarr.toString(), "--npy", npy.toString());
            assertThat(export.exitCode()).as(export.err()).isZero();
        }

        // an object at a key the manifest does not list (a chunk of zeros, absent) is not this job's
        Files.createDirectories(chunked.resolve("c/3"));
        Files.write(chunked.resolve("c/3/0"), Files.readAllBytes(chunked.resolve("c/1/0")));
        CliRun stray = CliRun.of("verify", chunked.toString());
        assertThat(stray.exitCode()).isEqualTo(1);
        assertThat(stray.out()).contains("c/3/0: extra chunk object, not listed in the manifest");
    }

    @Test
    void theDefaultChunkIsAPartitionsRowsByTheOtherDimsWhole() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("a.npy"), new long[] {1, 6});
        Path zarr = dir.resolve("out.zarr");

        CliRun run = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "[10,6]",
                "--format",
                "zarr",
                "--partitions",
                "2",
                "--output",
                zarr.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(objects(zarr)).containsExactly("c/0/0", "c/1/0");
        JsonNode json = JSON.readTree(zarr.resolve("zarr.json").toFile());
        assertThat(json.at("/chunk_grid/configuration/chunk_shape").toString()).isEqualTo("[5,6]");
        assertThat(json.get("codecs").size()).isEqualTo(1);
        // uncompressed: the second chunk is rows 5..9, little-endian int32
        ByteBuffer chunk =
                ByteBuffer.wrap(Files.readAllBytes(zarr.resolve("c/1/0"))).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(chunk.capacity()).isEqualTo(5 * 6 * 4);
        assertThat(chunk.getInt(4 * 7)).isEqualTo(NpyFiles.value(1));
    }

    @Test
    void overwriteReplacesAZarrArrayOfOursAndNothingElse() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("a.npy"), new long[] {1, 6});
        Path zarr = dir.resolve("out.zarr");
        String[] expand = {
            "expand",
            "--input",
            source.toString(),
            "--dialect",
            "numpy",
            "--shape",
            "[10,6]",
            "--format",
            "zarr",
            "--chunks",
            "5,6",
            "--output",
            zarr.toString(),
            "--overwrite"
        };
        assertThat(CliRun.of(expand).exitCode()).isZero();

        CliRun again = CliRun.of(expand);

        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(objects(zarr)).containsExactly("c/0/0", "c/1/0");
        // a file in the chunk tree that no grid names: not ours, so the output is refused and kept
        Files.writeString(zarr.resolve("c/notes.txt"), "mine");
        CliRun refused = CliRun.of(expand);
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(zarr.resolve("c/notes.txt")).hasContent("mine");
    }

    @Test
    void anArrayTensorstoreWroteIsAnInput() throws Exception {
        // int16 [5,6], arange(30) * 7 - 50, sharded and zstd: written by fixtures/zarr/check_tensorstore.py
        Path input = Path.of("..", "arrow-io", "src", "test", "resources", "zarr", "tensorstore-int16");
        Path zarr = dir.resolve("out.zarr");

        CliRun run = CliRun.of(
                "expand",
                "--input",
                input.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "[2,5,6]",
                "--format",
                "zarr",
                "--output",
                zarr.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        ArrayReader reader = TensorFileFormats.arrayFormats()
                .get(0)
                .open(
                        FileSystem.getLocal(new Configuration()),
                        new org.apache.hadoop.fs.Path(zarr.toAbsolutePath().toUri()));
        ByteBuffer values = ByteBuffer.wrap(reader.readSlab(0, 2)).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 60; i++) {
            assertThat(values.getShort(2 * i)).as("element %d", i).isEqualTo((short) (i % 30 * 7 - 50));
        }
        CliRun verify = CliRun.of("verify", zarr.toString(), "--source", input.toString());
        assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
    }

    @Test
    void aFailedRefusalWritesNothing() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("a.npy"), new long[] {1, 6});
        Path zarr = dir.resolve("out.zarr");

        CliRun shard = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "[10,6]",
                "--format",
                "zarr",
                "--chunks",
                "3,4",
                "--shard",
                "4,4",
                "--output",
                zarr.toString());
        CliRun rank = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "[10,6]",
                "--format",
                "zarr",
                "--chunks",
                "3",
                "--output",
                zarr.toString());
        CliRun lz4 = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "[10,6]",
                "--format",
                "zarr",
                "--compression",
                "lz4",
                "--output",
                zarr.toString());
        CliRun arrow = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "[10,6]",
                "--chunks",
                "3,4",
                "--output",
                zarr.toString());
        CliRun groups = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "[10,6]",
                "--format",
                "zarr",
                "--row-group-size",
                "2m",
                "--output",
                zarr.toString());

        assertThat(shard.err())
                .isEqualTo("Cannot use --shard 4,4: each dim must be a multiple of --chunks 3,4, one"
                        + " per dim (a shard holds whole chunks)\n");
        assertThat(rank.err()).isEqualTo("Cannot use --chunks 3 for output (10,6): give one size per dim (2)\n");
        assertThat(lz4.err())
                .isEqualTo("Cannot use --compression lz4 with format zarr: Zarr chunks take zstd,"
                        + " gzip or none here\n");
        assertThat(arrow.err())
                .isEqualTo("Cannot use --chunks with format arrow: chunks and shards are Zarr's; add"
                        + " --format zarr\n");
        assertThat(groups.err())
                .isEqualTo("Cannot use --row-group-size with format zarr: an array is cut into"
                        + " chunks, not row groups; give --chunks instead\n");
        CliRun names = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "[10,6]",
                "--format",
                "zarr",
                "--dimension-names",
                "time,lat,lon",
                "--output",
                zarr.toString());
        CliRun twice = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "[10,6]",
                "--format",
                "zarr",
                "--dimension-names",
                "x,x",
                "--output",
                zarr.toString());
        CliRun namesArrow = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "[10,6]",
                "--dimension-names",
                "time,x",
                "--output",
                zarr.toString());
        CliRun gzipParquet = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "[10,6]",
                "--format",
                "parquet",
                "--compression",
                "gzip",
                "--output",
                zarr.toString());
        assertThat(names.err())
                .isEqualTo("Cannot use --dimension-names time,lat,lon for output (10,6): 3 names for"
                        + " 2 dims; give one name per dim\n");
        assertThat(twice.err())
                .isEqualTo("Cannot use --dimension-names x,x: 'x' is given twice; expected one"
                        + " distinct name per output dim, such as time,lat,lon\n");
        assertThat(namesArrow.err())
                .isEqualTo("Cannot use --dimension-names with format arrow: dimension names are"
                        + " a Zarr array's; add --format zarr\n");
        assertThat(gzipParquet.err())
                .isEqualTo("Cannot use --compression gzip with format parquet: gzip is Zarr's"
                        + " codec here; arrow and parquet files take none, lz4 or zstd\n");
        for (CliRun run : List.of(shard, rank, lz4, arrow, groups, names, twice, namesArrow, gzipParquet)) {
            assertThat(run.exitCode()).isEqualTo(2);
        }
        assertThat(zarr).doesNotExist();
    }

    @Test
    void keptColumnsAreRefusedNotDropped() throws Exception {
        Path table = Files.createDirectories(dir.resolve("features"));
        DatasetFixtures.sql("COPY (SELECT i AS id, [CAST(i AS FLOAT) FOR k IN range(4)] AS tensor FROM range(0, 3)"
                + " t(i) ORDER BY i) TO '" + table.resolve("part-0.parquet") + "' (FORMAT PARQUET)");
        Path zarr = dir.resolve("out.zarr");
        String[] expand = {
            "expand",
            "--input",
            table.toString(),
            "--column",
            "tensor",
            "--row-shape",
            "1,4",
            "--dialect",
            "numpy",
            "--shape",
            "[3,2,4]",
            "--format",
            "zarr",
            "--output",
            zarr.toString()
        };

        CliRun kept = CliRun.of(expand);

        assertThat(kept.exitCode()).isEqualTo(2);
        assertThat(kept.err())
                .isEqualTo("Cannot keep columns [id] of input '" + table + "' with format zarr: an"
                        + " array holds the tensor alone; add --keep none\n");
        assertThat(zarr).doesNotExist();
        String[] none = java.util.Arrays.copyOf(expand, expand.length + 2);
        none[expand.length] = "--keep";
        none[expand.length + 1] = "none";
        CliRun tensorOnly = CliRun.of(none);
        assertThat(tensorOnly.exitCode()).as(tensorOnly.err()).isZero();
        assertThat(JSON.readTree(zarr.resolve("zarr.json").toFile())
                        .get("shape")
                        .toString())
                .isEqualTo("[3,2,4]");
    }

    @Test
    void broadcastTensorsWritesOneArrayPerInput() throws Exception {
        Path first = NpyFiles.int32(dir.resolve("a.npy"), new long[] {3, 1});
        Path second = NpyFiles.int32(dir.resolve("b.npy"), new long[] {1, 4});
        Path out = dir.resolve("pair");

        CliRun run = CliRun.of(
                "broadcast-tensors",
                "--input",
                first.toString(),
                "--input",
                second.toString(),
                "--dialect",
                "numpy",
                "--format",
                "zarr",
                "--output",
                out.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).contains("writing 2 datasets of [3,4] int32 (96 B) as one zarr array each in 1 task");
        for (String input : List.of("0", "1")) {
            assertThat(JSON.readTree(out.resolve(input).resolve("zarr.json").toFile())
                            .get("shape")
                            .toString())
                    .isEqualTo("[3,4]");
        }
        ArrayReader reader = TensorFileFormats.arrayFormats()
                .get(0)
                .open(
                        FileSystem.getLocal(new Configuration()),
                        new org.apache.hadoop.fs.Path(out.resolve("1").toUri()));
        ByteBuffer values = ByteBuffer.wrap(reader.readSlab(0, 3)).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 12; i++) {
            assertThat(values.getInt(4 * i)).as("element %d", i).isEqualTo(NpyFiles.value(i % 4));
        }
    }

    @Test
    void bfloat16IsRefusedInOneLine() throws Exception {
        SourceTensor source = TestDatasets.random(DType.BFLOAT16, Shape.of(3), 5, false);
        Path input = dir.resolve("in");
        TestDatasets.write(input, source, new long[] {2, 3}, "arrow", 1);
        Path zarr = dir.resolve("out.zarr");

        CliRun run = CliRun.of(
                "expand",
                "--input",
                input.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "[4,2,3]",
                "--format",
                "zarr",
                "--keep",
                "none",
                "--output",
                zarr.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("Cannot write bfloat16 values as zarr: Zarr v3 has no bfloat16 among its"
                        + " core data types; cast to float32 or float16 first, or write arrow or parquet\n");
        assertThat(zarr).doesNotExist();
    }

    /** A tensorstore-written input of {@code fixtures/zarr/tensorstore_inputs.py}, committed in arrow-io. */
    private static Path tensorstoreInput(String name) {
        return Path.of("..", "arrow-io", "src", "test", "resources", "zarr", "inputs", name);
    }

    @Test
    void aLargeZarrInputIsReadInSlicesByExpandAndReduceTasks() throws Exception {
        // float32 [1024,2048] (8 MiB), element i (i % 1000) / 4 (sums exact in any order), as a Zarr array of 64
        // chunk rows of [16,2048] (128 KiB each)
        ByteBuffer data = ByteBuffer.allocate(8 << 20).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 1024 * 2048; i++) {
            data.putFloat(i % 1000 * 0.25f);
        }
        Path npy = NpyFiles.write(dir.resolve("big.npy"), "<f4", new long[] {1024, 2048}, data.array());
        Path zarr = dir.resolve("big.zarr");
        CliRun write = CliRun.of(
                "expand",
                "--input",
                npy.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "1024,2048",
                "--format",
                "zarr",
                "--chunks",
                "16,2048",
                "--compression",
                "zstd",
                "--output",
                zarr.toString());
        assertThat(write.exitCode()).as(write.err()).isZero();
        String[] budget = {"--ship-threshold", "512k", "--partition-size", "512k"};

        // each task reads 4 chunk rows (512 KiB) of the 8 MiB, whatever the array's size
        CliRun plan = CliRun.of(Stream.concat(
                        Stream.of(
                                "plan",
                                "--input",
                                zarr.toString(),
                                "--dialect",
                                "numpy",
                                "--shape",
                                "1024,2048",
                                "--json"),
                        Stream.of(budget))
                .toArray(String[]::new));
        assertThat(plan.exitCode()).as(plan.err()).isZero();
        JsonNode source = JSON.readTree(plan.out()).get("source");
        assertThat(source.get("strategy").asText()).isEqualTo("slices");
        assertThat(source.get("array").asText()).isEqualTo("Zarr v3");
        assertThat(source.at("/task_read_bytes/max").asLong()).isEqualTo(512L << 10);

        Path out = dir.resolve("out");
        CliRun expand = CliRun.of(Stream.concat(
                        Stream.of(
                                "expand",
                                "--input",
                                zarr.toString(),
                                "--dialect",
                                "numpy",
                                "--shape",
                                "1024,2048",
                                "--output",
                                out.toString()),
                        Stream.of(budget))
                .toArray(String[]::new));
        assertThat(expand.exitCode()).as(expand.err()).isZero();
        assertThat(expand.err()).contains(" in 16 arrow files ");
        CliRun verify = CliRun.of("verify", out.toString(), "--source", npy.toString());
        assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
        assertThat(verify.out()).endsWith(", 2097152 values match the source\n");

        // reduce reads the array as its gradient in slices; its Zarr result holds the .npy result's bytes
        for (String inputShape : List.of("1,2048", "1024,1")) {
            byte[][] results = new byte[2][];
            for (String format : List.of("zarr", "npy")) {
                Path result = dir.resolve("sum-" + inputShape.replace(',', 'x') + "." + format);
                // the Zarr result in shards of chunks: [1,2048] as 4 chunks of 512, [1024,1] as 4 shards of 2 chunks
                String[] chunking = !format.equals("zarr")
                        ? new String[0]
                        : inputShape.equals("1,2048")
                                ? new String[] {"--chunks", "1,512", "--shard", "1,2048"}
                                : new String[] {"--chunks", "128,1", "--shard", "256,1"};
                CliRun reduce = CliRun.of(Stream.of(
                                Stream.of(
                                        "reduce",
                                        "--input",
                                        zarr.toString(),
                                        "--dialect",
                                        "numpy",
                                        "--input-shape",
                                        inputShape,
                                        "--shape",
                                        "1024,2048",
                                        "--output",
                                        result.toString(),
                                        "--format",
                                        format),
                                Stream.of(budget),
                                Stream.of(chunking))
                        .flatMap(s -> s)
                        .toArray(String[]::new));
                assertThat(reduce.exitCode()).as(reduce.err()).isZero();
                if (format.equals("zarr")) {
                    ArrayReader reader = TensorFileFormats.arrayFormats()
                            .get(0)
                            .open(
                                    FileSystem.getLocal(new Configuration()),
                                    new org.apache.hadoop.fs.Path(
                                            result.toAbsolutePath().toUri()));
                    assertThat(reader.layout().shape().toString()).isEqualTo("(" + inputShape + ")");
                    assertThat(reader.layout().shard())
                            .containsExactly(inputShape.equals("1,2048") ? new long[] {1, 2048} : new long[] {256, 1});
                    results[0] = reader.readSlab(0, reader.layout().shape().dim(0));
                } else {
                    byte[] file = Files.readAllBytes(result);
                    int bytes = inputShape.equals("1,2048") ? 2048 * 4 : 1024 * 4;
                    results[1] = java.util.Arrays.copyOfRange(file, file.length - bytes, file.length);
                }
            }
            assertThat(results[0]).as(inputShape).isEqualTo(results[1]);
        }
        // the first column's sum, by hand: row r holds (r * 2048 % 1000) / 4
        ByteBuffer sums = ByteBuffer.wrap(Files.readAllBytes(dir.resolve("sum-1x2048.npy")))
                .order(ByteOrder.LITTLE_ENDIAN);
        float expected = 0;
        for (long r = 0; r < 1024; r++) {
            expected += r * 2048 % 1000 * 0.25f;
        }
        assertThat(sums.getFloat(sums.capacity() - 2048 * 4)).isEqualTo(expected);
    }

    @Test
    void tensorstoreArraysAreReadInSlicesAsInputs() throws Exception {
        // bool (packed to bits once read), complex128, and a sharded gzip array with missing chunks (fill 1.5)
        for (String name : List.of("dtype-bool", "dtype-complex128", "sharded-gzip-missing", "v2-keys")) {
            Path input = tensorstoreInput(name);
            Path zarr = dir.resolve(name + ".zarr");
            JsonNode metadata = JSON.readTree(input.resolve("zarr.json").toFile());
            String shape = "2," + metadata.get("shape").toString().replaceAll("[\\[\\]]", "");

            CliRun run = CliRun.of(
                    "expand",
                    "--input",
                    input.toString(),
                    "--dialect",
                    "numpy",
                    "--shape",
                    shape,
                    "--format",
                    "zarr",
                    "--output",
                    zarr.toString(),
                    "--ship-threshold",
                    "1",
                    "--partitions",
                    "3");

            assertThat(run.exitCode()).as(name + ": " + run.err()).isZero();
            CliRun verify = CliRun.of("verify", zarr.toString(), "--source", input.toString());
            assertThat(verify.exitCode())
                    .as(name + ": " + verify.out() + verify.err())
                    .isZero();
            assertThat(verify.out()).as(name).contains(" values match the source");
        }
        // the values themselves: missing chunks read as the fill value
        ArrayReader reader = TensorFileFormats.arrayFormats()
                .get(0)
                .open(
                        FileSystem.getLocal(new Configuration()),
                        new org.apache.hadoop.fs.Path(dir.resolve("sharded-gzip-missing.zarr")
                                .toAbsolutePath()
                                .toUri()));
        ByteBuffer values = ByteBuffer.wrap(reader.readSlab(1, 1)).order(ByteOrder.LITTLE_ENDIAN);
        for (int e = 0; e < 66; e++) {
            assertThat(values.getFloat(4 * e)).as("element %d", e).isEqualTo(e < 36 ? e * 0.5f - 3 : 1.5f);
        }
    }

    @Test
    void reduceToZarrRefusesWhatAnArrayCannotHold() throws Exception {
        Path npy = NpyFiles.int32(dir.resolve("g.npy"), new long[] {4, 6});
        CliRun chunks = CliRun.of(
                "reduce",
                "--input",
                npy.toString(),
                "--dialect",
                "numpy",
                "--input-shape",
                "1,6",
                "--shape",
                "4,6",
                "--output",
                dir.resolve("r").toString(),
                "--chunks",
                "1,6");
        assertThat(chunks.exitCode()).isEqualTo(2);
        assertThat(chunks.err())
                .isEqualTo("Cannot use --chunks with format arrow: chunks and shards are Zarr's; add"
                        + " --format zarr\n");
        assertThat(dir.resolve("r")).doesNotExist();
    }
}
