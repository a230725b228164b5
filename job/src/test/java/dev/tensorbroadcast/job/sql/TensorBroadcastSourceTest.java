package dev.tensorbroadcast.job.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import dev.tensorbroadcast.planner.BroadcastException;
import dev.tensorbroadcast.planner.Dialect;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.Statistics;
import org.apache.spark.sql.types.StructField;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code spark.read.format("tensorbroadcast")} against the Java API's rows for the same request ({@code toDataset})
 * and against {@code expand}'s files of it byte for byte, for every dialect and 14 dtypes, on a real local Spark.
 */
class TensorBroadcastSourceTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void rowsEqualTheJavaApisRows(TensorBytes broadcast) throws IOException {
        String input = broadcast.source(dir).toString();

        Dataset<Row> table = broadcast.options(read(), input).load();
        Dataset<Row> expected = broadcast.request(input).build().toDataset(spark());

        assertThat(table.schema()).isEqualTo(expected.schema());
        // the planner's rows of [2,3,5,4]: two rows of [3,5,4]
        assertThat(rows(table)).hasSize(2).isEqualTo(rows(expected));
        // expand's Arrow files, exported as .npy, hold the table's values byte for byte
        assertThat(broadcast.values(table)).isEqualTo(broadcast.expanded(input, spark(), dir));
    }

    static List<TensorBytes> cases() {
        return TensorBytes.CASES;
    }

    @Test
    void rowsHoldTheBroadcastValues() throws IOException {
        // [1,4] int32 to [3,4]: every row is the source row
        String input = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 4}).toString();

        List<Row> rows = read().option("input", input)
                .option("dialect", "numpy")
                .option("shape", "3,4")
                .load()
                .orderBy("index")
                .collectAsList();

        assertThat(rows).extracting(row -> row.getLong(0)).containsExactly(0L, 1L, 2L);
        for (Row row : rows) {
            assertThat(row.getList(1)).containsExactly(3, 10, 17, 24);
        }
    }

    @Test
    void openvinoExplicitModeTakesTheAxesMapping() throws IOException {
        String input = npy("<f4", new long[] {3}).toString();

        Dataset<Row> table = read().option("input", input)
                .option("dialect", "openvino")
                .option("mode", "explicit")
                .option("axes-mapping", "[1]")
                .option("shape", "2,3,4")
                .load();
        Dataset<Row> expected = TensorBroadcast.builder()
                .source(input)
                .dialect(Dialect.OPENVINO)
                .mode(dev.tensorbroadcast.planner.BroadcastMode.EXPLICIT)
                .axesMapping(List.of(1L))
                .shape(2, 3, 4)
                .build()
                .toDataset(spark());

        assertThat(rows(table)).hasSize(2).isEqualTo(rows(expected));
    }

    @Test
    void partitionsAreThePlannersAndBatchesAreBounded() throws IOException {
        String input = npy("<f8", new long[] {1, 16}).toString();
        Dataset<Row> table = read().option("input", input)
                .option("dialect", "numpy")
                .option("shape", "1000,16")
                .option("partitions", "3")
                .load();

        assertThat(table.rdd().getNumPartitions()).isEqualTo(3);
        assertThat(table.count()).isEqualTo(1000);
        assertThat(table.select("index").distinct().count()).isEqualTo(1000);
    }

    @Test
    void partitionSizeCutsPartitionsOfAboutThatSize() throws IOException {
        String input = npy("<f8", new long[] {1, 16}).toString();
        DataFrameReader request =
                read().option("input", input).option("dialect", "numpy").option("shape", "1000,16");

        // 1000 rows of 128 bytes in partitions of at most 16 KiB: 128000 / 16384 rounded up
        Dataset<Row> table = request.option("partition-size", "16k").load();

        assertThat(table.rdd().getNumPartitions()).isEqualTo(8);
        assertThat(rows(table))
                .hasSize(1000)
                .isEqualTo(rows(read().option("input", input)
                        .option("dialect", "numpy")
                        .option("shape", "1000,16")
                        .load()));
        assertThat(read().option("input", input)
                        .option("dialect", "numpy")
                        .option("shape", "1000,16")
                        .option("PARTITION-SIZE", "64m")
                        .load()
                        .rdd()
                        .getNumPartitions())
                .isEqualTo(1);
    }

    @Test
    void aBadPartitionSizeIsRefusedInTheCommandLinesLine() throws IOException {
        String input = npy("<f8", new long[] {1, 16}).toString();

        assertThatThrownBy(() -> read().option("input", input)
                        .option("dialect", "numpy")
                        .option("partition-size", "64x")
                        .load())
                .hasMessage("Cannot parse partition size '64x': write a number of bytes with an optional k, m, g or t"
                        + " (binary units), such as 128m or 4096");
        assertThatThrownBy(() -> read().option("input", input)
                        .option("dialect", "numpy")
                        .option("partition-size", "0")
                        .load())
                .hasMessage("Cannot use partition size 0: it must be at least 1 byte");
        assertThatThrownBy(() -> read().option("input", input)
                        .option("dialect", "numpy")
                        .option("partition-size", "64m")
                        .option("partitions", "2")
                        .load())
                .hasMessage("Cannot use partition-size with partitions: they are mutually exclusive (give a size per"
                        + " partition or a partition count)");
    }

    @Test
    void theOptimizerKnowsRowsAndBytes() throws IOException {
        String input = npy("<f4", new long[] {1, 4}).toString();
        Dataset<Row> table = read().option("input", input)
                .option("dialect", "numpy")
                .option("shape", "100,4")
                .load();

        Statistics stats = table.queryExecution().optimizedPlan().stats();

        assertThat(stats.rowCount().get().longValue()).isEqualTo(100);
        // 100 rows of 4 float32 values and an 8-byte index
        assertThat(stats.sizeInBytes().longValue()).isEqualTo(100 * (16 + 8));
    }

    @Test
    void theSchemaCarriesTheRowShape() throws IOException {
        String input = npy("<f4", new long[] {1, 4}).toString();

        StructField tensor = read().option("input", input)
                .option("dialect", "numpy")
                .option("shape", "5,2,4")
                .load()
                .schema()
                .apply("tensor");

        assertThat(tensor.metadata().getLongArray(SparkTypes.SHAPE_METADATA)).containsExactly(2, 4);
    }

    @Test
    void sqlReadsATemporaryView() throws IOException {
        String input = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 4}).toString();
        spark().sql("CREATE TEMPORARY VIEW b USING tensorbroadcast OPTIONS (input '" + input + "', dialect 'numpy',"
                + " shape '8,4')");
        try {
            List<Row> rows = spark().sql("SELECT index, tensor[2] AS third FROM b WHERE index >= 6 ORDER BY index")
                    .collectAsList();

            assertThat(rows).extracting(row -> row.getLong(0)).containsExactly(6L, 7L);
            assertThat(rows).extracting(row -> row.getInt(1)).containsExactly(17, 17);
            assertThat(spark().sql("SELECT count(*) FROM b").first().getLong(0)).isEqualTo(8);
        } finally {
            spark().catalog().dropTempView("b");
        }
    }

    /** Spark's own sinks take the table as it is read; JSON has no types, so it is read back with the
     * table's; Parquet keeps the row shape in the schema's metadata.
     */
    @ParameterizedTest
    @ValueSource(strings = {"parquet", "orc", "json"})
    void sparksSinksWriteTheTable(String sink) throws IOException {
        String input = npy("<f2", new long[] {2, 1, 3}).toString();
        Dataset<Row> table = read().option("input", input)
                .option("dialect", "numpy")
                .option("shape", "2,4,3")
                .load();
        String written = dir.resolve("out." + sink).toString();

        table.write().format(sink).save(written);
        DataFrameReader reader = spark().read().format(sink);
        Dataset<Row> back = sink.equals("json") ? reader.schema(table.schema()).load(written) : reader.load(written);

        assertThat(rows(back)).hasSize(2).isEqualTo(rows(table));
        assertThat(rows(back).get(1).get(1)).asList().hasSize(12).contains(10.5f, 16.5f);
        if (sink.equals("parquet")) {
            assertThat(back.schema().apply("tensor").metadata().getLongArray(SparkTypes.SHAPE_METADATA))
                    .containsExactly(4, 3);
        }
    }

    @Test
    void badOptionsAreRefusedInOneLine() throws IOException {
        String input = npy("<f4", new long[] {2, 3}).toString();

        assertThatThrownBy(() -> read().option("input", input)
                        .option("dialect", "numpy")
                        .option("shape", "4,3")
                        .load())
                .isInstanceOf(BroadcastException.class)
                .hasMessage("Cannot broadcast (2,3) to (4,3) [numpy]: dim 0 is 2 in the input and 4 in the target;"
                        + " only 1 can grow (the input needs 4 or 1 there)");
        assertThatThrownBy(() -> read().option("input", input)
                        .option("dialect", "tensorflow")
                        .load())
                .hasMessage("Cannot parse dialect 'tensorflow': expected numpy, mindspore, pytorch, paddle, onnx,"
                        + " openvino or ngraph");
        assertThatThrownBy(() -> read().option("input", input)
                        .option("dialect", "ngraph")
                        .option("shape", "2,3")
                        .option("broadcast-axes", "0,a")
                        .load())
                .hasMessage("Cannot parse broadcast axes '0,a': 'a' is not an integer; write it as [0,2], 0,2 or []"
                        + " for none");
        assertThatThrownBy(() -> read().option("input", input)
                        .option("dialect", "numpy")
                        .option("shape", "2,a")
                        .load())
                .hasMessage("Cannot parse target shape '2,a': 'a' is not an integer; write it as [2,3], 2,3 or [] for a"
                        + " scalar");
        assertThatThrownBy(() -> read().option("input", input)
                        .option("dialect", "numpy")
                        .option("shap", "2,3")
                        .load())
                .hasMessage(
                        "Cannot read a tensorbroadcast table with option 'shap': expected input, dialect, shape,"
                                + " mode, axes-mapping, broadcast-axes, axis, column, row-shape, partitions, partition-size, keep");
        assertThatThrownBy(() -> read().option("dialect", "numpy").load())
                .hasMessage("Cannot read a tensorbroadcast table without option 'input': give a .npy or Arrow IPC"
                        + " file or a dataset directory");
    }

    private DataFrameReader read() {
        return spark().read().format("tensorbroadcast");
    }

    private static SparkSession spark() {
        return SPARK.session();
    }

    /** The rows in index order, as lists of Java values. */
    private static List<List<Object>> rows(Dataset<Row> rows) {
        List<List<Object>> values = new ArrayList<>();
        for (Row row : rows.orderBy("index").collectAsList()) {
            values.add(List.of(row.getLong(0), row.getList(1)));
        }
        return values;
    }

    private Path npy(String descr, long[] shape) throws IOException {
        return TensorBytes.npy(dir, descr, shape);
    }
}
