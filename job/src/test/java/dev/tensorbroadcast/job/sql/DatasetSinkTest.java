package dev.tensorbroadcast.job.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tensorbroadcast.arrowio.format.ArrayChunking;
import dev.tensorbroadcast.arrowio.format.Compression;
import dev.tensorbroadcast.arrowio.format.OutputCompression;
import dev.tensorbroadcast.arrowio.source.KeptFixtures;
import dev.tensorbroadcast.job.KeepColumns;
import dev.tensorbroadcast.job.OutputFormat;
import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.ParquetFooters;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.Param;
import dev.tensorbroadcast.planner.Shape;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.DataFrameWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code df.write.format("tensorbroadcast")} of the data source's read of a broadcast, against {@code expand}'s
 * dataset of the same request: the same part files byte for byte, the manifest the same but for what says when,
 * where and from what request it was written.
 */
class DatasetSinkTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"arrow", "parquet", "parquet zstd:1 1m"})
    void writesTheFilesExpandWrites(String request) throws IOException {
        String[] words = request.split(" ");
        String format = words[0];
        boolean settings = words.length > 1;
        String input =
                NpyFiles.int32(dir.resolve("in.npy"), new long[] {3, 1, 4}).toString();
        Path expanded = dir.resolve("expand-" + format);
        TensorBroadcast.Builder expand = TensorBroadcast.builder()
                .source(input)
                .dialect(Dialect.NUMPY)
                .shape(6, 3, 5, 4)
                .partitions(3)
                .format(OutputFormat.parse(format))
                .output(expanded.toString());
        Path written = dir.resolve("sink-" + format);
        DataFrameWriter<Row> sink = spark().read()
                .format("tensorbroadcast")
                .option("input", input)
                .option("dialect", "numpy")
                .option("shape", "6,3,5,4")
                .option("partitions", "3")
                .load()
                .write()
                .format("tensorbroadcast")
                .option("format", format)
                .mode("append");
        if (settings) {
            expand.compression(OutputCompression.ZSTD).compressionLevel(1).rowGroupBytes(1 << 20);
            sink.option("compression", words[1]).option("row-group-size", words[2]);
        }
        expand.build().run(spark());

        sink.save(written.toString());

        assertThat(names(written))
                .isEqualTo(names(expanded))
                .contains("_SUCCESS", "_manifest.json", "part-00002." + format);
        for (String name : names(expanded)) {
            if (name.startsWith("part-")) {
                assertThat(Files.readAllBytes(written.resolve(name)))
                        .as(name)
                        .isEqualTo(Files.readAllBytes(expanded.resolve(name)));
            }
        }
        JsonNode ours = manifest(written);
        JsonNode theirs = manifest(expanded);
        for (String field : List.of(
                "shape",
                "dtype",
                "elements",
                "bytes",
                "row_dims",
                "row_shape",
                "rows",
                "format",
                "compression",
                "partitions")) {
            assertThat(ours.get(field)).as(field).isEqualTo(theirs.get(field));
        }
        for (int i = 0; i < 3; i++) {
            for (String field : List.of("path", "partition", "first_row", "rows", "bytes", "crc32c")) {
                assertThat(ours.get("files").get(i).get(field))
                        .as(field)
                        .isEqualTo(theirs.get("files").get(i).get(field));
            }
        }
        Dataset<Row> back = spark().read().format("tensorbroadcast").load(written.toString());
        assertThat(DatasetSourceTest.rows(back))
                .isEqualTo(DatasetSourceTest.rows(
                        spark().read().format("tensorbroadcast").load(expanded.toString())));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2,3,5,2 - none 6", "2,3,5,2 2,3,5,4 zstd 3", "3,3,5,4 - gzip:3 2"})
    void writesTheArrayExpandWrites(String request) throws IOException {
        String[] words = request.split(" ");
        long[] chunks = ArrayChunking.parse(words[0], Param.CHUNKS);
        long[] shard = words[1].equals("-") ? new long[0] : ArrayChunking.parse(words[1], Param.SHARD);
        String input =
                NpyFiles.int32(dir.resolve("in.npy"), new long[] {3, 1, 4}).toString();
        Path expanded = dir.resolve("expand");
        // as many rows per partition as a chunk holds: the source's partitions are expand's plan aligned to chunks
        String partitions = chunks[0] == 3 ? "2" : "3";
        Compression compression = Compression.parse(words[2]);
        TensorBroadcast.Builder expand = TensorBroadcast.builder()
                .source(input)
                .dialect(Dialect.NUMPY)
                .shape(6, 3, 5, 4)
                .partitions(Integer.parseInt(partitions))
                .format(OutputFormat.parse("zarr").withChunking(new ArrayChunking(chunks, shard)))
                .compression(compression.codec())
                .output(expanded.toString());
        if (compression.level() > 0) {
            expand.compressionLevel(compression.level());
        }
        expand.build().run(spark());
        Path written = dir.resolve("sink");
        DataFrameWriter<Row> sink = spark().read()
                .format("tensorbroadcast")
                .option("input", input)
                .option("dialect", "numpy")
                .option("shape", "6,3,5,4")
                .option("partitions", partitions)
                .load()
                .write()
                .format("tensorbroadcast")
                .option("format", "zarr")
                .option("chunks", words[0])
                .option("compression", words[2])
                .mode("append");
        if (shard.length > 0) {
            sink.option("shard", words[1]);
        }

        sink.save(written.toString());

        List<String> objects = tree(expanded);
        assertThat(tree(written)).isEqualTo(objects).contains("zarr.json", "_SUCCESS", "_manifest.json");
        assertThat(objects.stream().filter(name -> name.startsWith("c/"))).hasSize(Integer.parseInt(words[3]));
        for (String name : objects) {
            if (name.startsWith("c/")) {
                assertThat(Files.readAllBytes(written.resolve(name)))
                        .as(name)
                        .isEqualTo(Files.readAllBytes(expanded.resolve(name)));
            }
        }
        ObjectMapper json = new ObjectMapper();
        assertThat(json.readTree(written.resolve("zarr.json").toFile()))
                .isEqualTo(json.readTree(expanded.resolve("zarr.json").toFile()));
        JsonNode ours = manifest(written);
        JsonNode theirs = manifest(expanded);
        for (String field : List.of(
                "shape",
                "dtype",
                "elements",
                "bytes",
                "row_dims",
                "row_shape",
                "rows",
                "format",
                "compression",
                "partitions")) {
            assertThat(ours.get(field)).as(field).isEqualTo(theirs.get(field));
        }
        assertThat(ours.get("files")).hasSameSizeAs(theirs.get("files"));
        for (int i = 0; i < theirs.get("files").size(); i++) {
            for (String field : List.of("path", "partition", "first_row", "rows", "bytes", "crc32c")) {
                assertThat(ours.get("files").get(i).get(field))
                        .as(i + " " + field)
                        .isEqualTo(theirs.get("files").get(i).get(field));
            }
        }
        assertThat(DatasetSourceTest.rows(
                        spark().read().format("tensorbroadcast").load(written.toString())))
                .isEqualTo(DatasetSourceTest.rows(
                        spark().read().format("tensorbroadcast").load(expanded.toString())));
    }

    /**
     * {@code load(dir)} of an {@code expand --keep} dataset (int64, int32, float64, string with nulls, date, timestamp,
     * bool, int8 next to the tensor) written back through the sink: the same part files (a Parquet footer compared by
     * content) and the same kept columns in the manifest.
     */
    @ParameterizedTest
    @ValueSource(strings = {"arrow", "parquet"})
    void writesKeptColumnsAsExpandKeepsThem(String format) throws Exception {
        Path input = KeptFixtures.copy("parquet", dir.resolve("table"));
        Path expanded = dir.resolve("expand");
        TensorBroadcast.builder()
                .source(input.toString())
                .column("features")
                .rowShape(Shape.of(1, 8))
                .keep(KeepColumns.of(KeptFixtures.KEPT.toArray(String[]::new)))
                .dialect(Dialect.PYTORCH)
                .shape(-1, 3, 8)
                .partitions(4)
                .format(OutputFormat.parse(format))
                .output(expanded.toString())
                .build()
                .run(spark());
        Path written = dir.resolve("sink");

        spark().read()
                .format("tensorbroadcast")
                .load(expanded.toString())
                .write()
                .format("tensorbroadcast")
                .option("format", format)
                .mode("append")
                .save(written.toString());

        assertThat(names(written)).isEqualTo(names(expanded)).contains("part-00003." + format);
        for (String name : names(expanded)) {
            if (name.startsWith("part-")) {
                byte[] ours = Files.readAllBytes(written.resolve(name));
                byte[] theirs = Files.readAllBytes(expanded.resolve(name));
                if (format.equals("parquet")) {
                    ours = ParquetFooters.canonical(written.resolve(name), ours);
                    theirs = ParquetFooters.canonical(expanded.resolve(name), theirs);
                }
                assertThat(ours).as(name).isEqualTo(theirs);
            }
        }
        assertThat(manifest(written).get("kept_columns"))
                .isEqualTo(manifest(expanded).get("kept_columns"))
                .hasSize(KeptFixtures.KEPT.size());
        assertThat(spark().read()
                        .format("tensorbroadcast")
                        .load(written.toString())
                        .orderBy("index")
                        .collectAsList())
                .isEqualTo(spark().read()
                        .format("tensorbroadcast")
                        .load(expanded.toString())
                        .orderBy("index")
                        .collectAsList());
    }

    /**
     * A task's file is named by its partition; where empty partitions come first, the files are renamed after the
     * commit to {@code expand}'s names in row order.
     */
    @Test
    void namesTheFilesInRowOrderAfterEmptyPartitions() throws IOException {
        String input =
                NpyFiles.int32(dir.resolve("in.npy"), new long[] {3, 1, 4}).toString();
        Path expanded = dir.resolve("expand");
        TensorBroadcast.builder()
                .source(input)
                .dialect(Dialect.NUMPY)
                .shape(6, 3, 5, 4)
                .partitions(3)
                .output(expanded.toString())
                .build()
                .run(spark());
        Dataset<Row> table = spark().read()
                .format("tensorbroadcast")
                .option("input", input)
                .option("dialect", "numpy")
                .option("shape", "6,3,5,4")
                .option("partitions", "3")
                .load();
        // three partitions of no rows (a filter Spark cannot push down), then the three of the broadcast
        Dataset<Row> later = table.where("size(tensor) < 0").union(table);
        Path written = dir.resolve("sink");

        later.write().format("tensorbroadcast").mode("append").save(written.toString());

        assertThat(later.rdd().getNumPartitions()).isEqualTo(6);
        assertThat(names(written))
                .isEqualTo(names(expanded))
                .containsExactly(
                        "_SUCCESS", "_manifest.json", "part-00000.arrow", "part-00001.arrow", "part-00002.arrow");
        for (String name : names(expanded)) {
            if (name.startsWith("part-")) {
                assertThat(Files.readAllBytes(written.resolve(name)))
                        .as(name)
                        .isEqualTo(Files.readAllBytes(expanded.resolve(name)));
            }
        }
        assertThat(manifest(written).get("files").get(2).get("path").asText()).isEqualTo("part-00002.arrow");
    }

    @Test
    void refusesAnArrayItCannotWrite() throws IOException {
        String input = NpyFiles.int32(dir.resolve("in.npy"), new long[] {1, 4}).toString();
        Dataset<Row> table = spark().read()
                .format("tensorbroadcast")
                .option("input", input)
                .option("dialect", "numpy")
                .option("shape", "6,4")
                .option("partitions", "3")
                .load();

        assertThatThrownBy(() -> table.write()
                        .format("tensorbroadcast")
                        .option("format", "zarr")
                        .mode("append")
                        .save(dir.resolve("z").toString()))
                .hasMessage("Cannot write a tensorbroadcast dataset as zarr without option chunks: expand chooses"
                        + " chunks from its partitions, which the sink does not know; give one size per dim, such as"
                        + " chunks 64,4096, and cut the DataFrame's partitions at multiples of the first");
        assertThatThrownBy(() -> table.write()
                        .format("tensorbroadcast")
                        .option("format", "zarr")
                        .option("chunks", "2")
                        .mode("append")
                        .save(dir.resolve("z").toString()))
                .hasMessage("Cannot use --chunks 2 for output (0,4): give one size per dim (2)");
        assertThatThrownBy(() -> table.selectExpr("index", "tensor", "index % 2 as label")
                        .write()
                        .format("tensorbroadcast")
                        .option("format", "zarr")
                        .option("chunks", "2,4")
                        .mode("append")
                        .save(dir.resolve("z").toString()))
                .hasMessage("Cannot keep columns [label] in format zarr: an array holds the tensor's values only;"
                        + " write arrow or parquet, or select index and tensor alone");
        assertThatThrownBy(() -> table.selectExpr("index", "tensor", "array(index) as ids")
                        .write()
                        .format("tensorbroadcast")
                        .mode("append")
                        .save(dir.resolve("z").toString()))
                .hasMessage("Cannot keep column 'ids' of array<bigint>: expected one number, boolean, string, binary,"
                        + " date or timestamp per row");
        assertThatThrownBy(() -> table.write()
                        .format("tensorbroadcast")
                        .option("format", "zarr")
                        .option("chunks", "4,4")
                        .mode("append")
                        .save(dir.resolve("z").toString()))
                .hasMessageContaining("Cannot write a tensorbroadcast dataset as zarr: a partition holds index 2 to 3,"
                        + " not whole chunks of 4 rows; each partition's rows must start at a multiple of 4 (the first"
                        + " dim of the chunks, or of the shard) and all but the last end at one");
        assertThat(dir.resolve("z")).doesNotExist();
    }

    private static List<String> tree(Path directory) throws IOException {
        try (Stream<Path> entries = Files.walk(directory)) {
            return entries.filter(Files::isRegularFile)
                    .map(path -> directory.relativize(path).toString())
                    .filter(name -> !name.startsWith(".") && !name.contains("/."))
                    .sorted()
                    .toList();
        }
    }

    @Test
    void refusesWhatItCannotWrite() throws IOException {
        String input = NpyFiles.int32(dir.resolve("in.npy"), new long[] {1, 4}).toString();
        Dataset<Row> table = spark().read()
                .format("tensorbroadcast")
                .option("input", input)
                .option("dialect", "numpy")
                .option("shape", "4,4")
                .load();
        Path taken = Files.createDirectories(dir.resolve("taken"));
        Files.writeString(taken.resolve("notes.txt"), "mine");

        assertThatThrownBy(() -> table.write()
                        .format("tensorbroadcast")
                        .option("format", "npy")
                        .mode("append")
                        .save(dir.resolve("z").toString()))
                .hasMessage("Cannot use format 'npy': expected arrow, parquet or zarr");
        assertThatThrownBy(() ->
                        table.write().format("tensorbroadcast").mode("append").save(taken.toString()))
                .hasMessage("Cannot write " + taken + ": it is not empty; a tensorbroadcast dataset is written into a"
                        + " new or empty directory");
        assertThat(Files.readString(taken.resolve("notes.txt"))).isEqualTo("mine");
        assertThatThrownBy(() -> table.selectExpr("index", "cast(tensor as array<string>) as tensor")
                        .write()
                        .format("tensorbroadcast")
                        .mode("append")
                        .save(dir.resolve("s").toString()))
                .hasMessage("Cannot write a tensorbroadcast dataset of tensor string: expected tinyint, smallint,"
                        + " int, bigint, float or double elements");
        assertThatThrownBy(() -> sink(table, "compression", "zstd:99"))
                .hasMessage(
                        "Cannot use compression 'zstd:99': zstd levels go from 1 (fastest) to 22 (smallest); expected none, lz4, zstd,"
                                + " zstd:1 to zstd:22, gzip or gzip:1 to gzip:9");
        assertThatThrownBy(() -> sink(table, "row-group-size", "lots"))
                .hasMessage("Cannot parse row group size 'lots': write a number of bytes with an optional k, m, g or t"
                        + " (binary units), such as 128m or 4096");
        assertThatThrownBy(() -> sink(table, "chunks", "2,4"))
                .hasMessage("Cannot use --chunks with format arrow: chunks and shards are Zarr's; add --format zarr");
        assertThatThrownBy(() -> sink(table, "row-layout", "nested"))
                .hasMessage("Cannot use --row-layout nested with format arrow: Arrow IPC rows are"
                        + " arrow.fixed_shape_tensor, which keeps their shape; nested rows are for Parquet readers"
                        + " (Spark, DuckDB, polars); add --format parquet");
        assertThatThrownBy(() -> sink(table, "codec", "zstd"))
                .hasMessage("Cannot write a tensorbroadcast dataset with option 'codec': expected format, compression,"
                        + " row-group-size, encoding, row-layout, chunks, shard");
        assertThat(dir.resolve("o")).doesNotExist();
    }

    private void sink(Dataset<Row> table, String option, String value) {
        table.write()
                .format("tensorbroadcast")
                .option(option, value)
                .mode("append")
                .save(dir.resolve("o").toString());
    }

    private static List<String> names(Path directory) throws IOException {
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.map(path -> path.getFileName().toString())
                    .filter(name -> !name.startsWith("."))
                    .sorted()
                    .toList();
        }
    }

    private static JsonNode manifest(Path directory) throws IOException {
        return new ObjectMapper().readTree(directory.resolve("_manifest.json").toFile());
    }

    private static SparkSession spark() {
        return SPARK.session();
    }
}
