package dev.tensorbroadcast.job.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.format.ArrayChunking;
import dev.tensorbroadcast.job.KeepColumns;
import dev.tensorbroadcast.job.OutputFormat;
import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.ParquetFooters;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.Param;
import dev.tensorbroadcast.planner.Shape;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.SparkEnv;
import org.apache.spark.sql.DataFrameWriter;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sink's tasks past the sizes of what they hold: partitions of many of {@link RowValues}' buffers, read back
 * through windows of the kernel's file source (a Parquet row group and a Zarr chunk's short runs) and straight into
 * an Arrow batch, and kept columns of several of {@link KeptValues}' chunks, whose batches straddle them; each written
 * as {@code expand} writes it. No spill file outlives its task, whether the task commits or fails.
 */
class SinkSpillTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    Path dir;

    /** Partitions of 2000 rows of [8,256] int32: 16 MiB each, sixteen buffers and two windows. */
    @ParameterizedTest
    @ValueSource(strings = {"arrow", "parquet 1m", "zarr 50,4,64"})
    void partitionsOfManyBuffersAreTheFilesExpandWrites(String request) throws IOException {
        String[] words = request.split(" ");
        String format = words[0];
        String input =
                NpyFiles.int32(dir.resolve("in.npy"), new long[] {4000, 1, 256}).toString();
        Path expanded = dir.resolve("expand");
        TensorBroadcast.Builder expand = TensorBroadcast.builder()
                .source(input)
                .dialect(Dialect.NUMPY)
                .shape(4000, 8, 256)
                .partitions(2)
                .output(expanded.toString());
        DataFrameWriter<Row> sink = spark().read()
                .format("tensorbroadcast")
                .option("input", input)
                .option("dialect", "numpy")
                .option("shape", "4000,8,256")
                .option("partitions", "2")
                .load()
                .write()
                .format("tensorbroadcast")
                .option("format", format)
                .mode("append");
        switch (format) {
            case "parquet" -> {
                expand.format(OutputFormat.parse(format)).rowGroupBytes(1 << 20);
                sink.option("row-group-size", words[1]);
            }
            case "zarr" -> {
                expand.format(OutputFormat.parse(format)
                        .withChunking(new ArrayChunking(ArrayChunking.parse(words[1], Param.CHUNKS), new long[0])));
                sink.option("chunks", words[1]);
            }
            default -> expand.format(OutputFormat.parse(format));
        }
        expand.build().run(spark());
        Path written = dir.resolve("sink");

        sink.save(written.toString());

        List<String> objects = tree(expanded);
        assertThat(tree(written)).isEqualTo(objects).contains("_manifest.json");
        assertThat(objects.stream().filter(name -> name.startsWith("part-") || name.startsWith("c/")))
                .hasSizeGreaterThanOrEqualTo(2);
        for (String name : objects) {
            if (name.startsWith("part-") || name.startsWith("c/")) {
                assertThat(Files.readAllBytes(written.resolve(name)))
                        .as(name)
                        .isEqualTo(Files.readAllBytes(expanded.resolve(name)));
            }
        }
        assertThat(spilled()).isEmpty();
    }

    /** 10,000 rows with their kept columns in 2 partitions: 5000 rows each, more than a chunk of 4096. */
    @ParameterizedTest
    @ValueSource(strings = {"arrow", "parquet"})
    void keptColumnsOfManyChunksAreThoseExpandKeeps(String format) throws Exception {
        Path input = dir.resolve("table");
        spark().range(10_000)
                .selectExpr(
                        "id AS user_id",
                        "IF(id % 7 = 0, NULL, concat('u', id)) AS name",
                        "transform(sequence(0, 7), i -> CAST(id + i / 8 AS float)) AS features")
                .coalesce(1)
                .write()
                .parquet(input.toString());
        Path expanded = dir.resolve("expand");
        TensorBroadcast.builder()
                .source(input.toString())
                .column("features")
                .rowShape(Shape.of(1, 8))
                .keep(KeepColumns.all())
                .dialect(Dialect.PYTORCH)
                .shape(-1, 3, 8)
                .partitions(2)
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

        assertThat(tree(written)).isEqualTo(tree(expanded)).contains("part-00001." + format);
        for (String name : tree(expanded)) {
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
        assertThat(spilled()).isEmpty();
    }

    @Test
    void aFailedTaskLeavesNoSpillFile() throws IOException {
        // row 5000 of the one partition holds a null: the task has spilled 5000 rows of values and kept columns
        assertThatThrownBy(() -> spark().range(0, 6000, 1, 1)
                        .selectExpr(
                                "id AS index",
                                "IF(id = 5000, array(CAST(NULL AS float)), array(CAST(id AS float))) AS tensor",
                                "id AS label")
                        .write()
                        .format("tensorbroadcast")
                        .mode("append")
                        .save(dir.resolve("out").toString()))
                .hasMessageContaining("Cannot write a tensorbroadcast dataset: row 5000 holds a null value; only rows"
                        + " without nulls are written");

        assertThat(spilled()).isEmpty();
    }

    @AfterEach
    void noSpillFileIsLeft() throws IOException {
        assertThat(spilled()).isEmpty();
    }

    /** The files Spark's local directories hold that a task made with {@code createTempLocalBlock}. */
    private static List<Path> spilled() throws IOException {
        List<Path> found = new ArrayList<>();
        for (File local : SparkEnv.get().blockManager().diskBlockManager().localDirs()) {
            try (Stream<Path> entries = Files.walk(local.toPath())) {
                entries.filter(path -> path.getFileName().toString().startsWith("temp_local_"))
                        .forEach(found::add);
            }
        }
        return found;
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

    private static SparkSession spark() {
        return SPARK.session();
    }
}
