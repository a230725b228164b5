package dev.tensorbroadcast.job.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tensorbroadcast.job.OutputFormat;
import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import dev.tensorbroadcast.planner.Dialect;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
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
    @ValueSource(strings = {"arrow", "parquet"})
    void writesTheFilesExpandWrites(String format) throws IOException {
        String input =
                NpyFiles.int32(dir.resolve("in.npy"), new long[] {3, 1, 4}).toString();
        Path expanded = dir.resolve("expand-" + format);
        TensorBroadcast.builder()
                .source(input)
                .dialect(Dialect.NUMPY)
                .shape(6, 3, 5, 4)
                .partitions(3)
                .format(OutputFormat.parse(format))
                .output(expanded.toString())
                .build()
                .run(spark());
        Path written = dir.resolve("sink-" + format);

        spark().read()
                .format("tensorbroadcast")
                .option("input", input)
                .option("dialect", "numpy")
                .option("shape", "6,3,5,4")
                .option("partitions", "3")
                .load()
                .write()
                .format("tensorbroadcast")
                .option("format", format)
                .mode("append")
                .save(written.toString());

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
                        .option("format", "zarr")
                        .mode("append")
                        .save(dir.resolve("z").toString()))
                .hasMessage("Cannot write a tensorbroadcast dataset as 'zarr': expected arrow or parquet");
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
