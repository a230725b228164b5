package dev.tensorbroadcast.job.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.format.RowLayout;
import dev.tensorbroadcast.arrowio.source.KeptFixtures;
import dev.tensorbroadcast.job.KeepColumns;
import dev.tensorbroadcast.job.OutputFormat;
import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.Shape;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code spark.read.format("tensorbroadcast").load(dir)} of the datasets {@code expand} writes, against the rows of
 * the same broadcast read without writing it (whose values {@link TensorBroadcastSourceTest} checks), on a real
 * local Spark.
 */
class DatasetSourceTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"arrow", "parquet", "parquet nested", "zarr"})
    void readsBackWhatExpandWrote(String written) throws IOException {
        String format = written.split(" ")[0];
        String input =
                NpyFiles.int32(dir.resolve("in.npy"), new long[] {3, 1, 4}).toString();
        String output = dir.resolve(written.replace(' ', '-')).toString();
        TensorBroadcast.Builder expand = TensorBroadcast.builder()
                .source(input)
                .dialect(Dialect.NUMPY)
                .shape(6, 3, 5, 4)
                .partitions(3)
                .format(OutputFormat.parse(format))
                .output(output);
        if (written.endsWith("nested")) {
            expand.rowLayout(RowLayout.NESTED);
        }
        Manifest manifest = expand.build().run(spark());

        Dataset<Row> table = spark().read().format("tensorbroadcast").load(output);
        Dataset<Row> broadcast = spark().read()
                .format("tensorbroadcast")
                .option("input", input)
                .option("dialect", "numpy")
                .option("shape", "6,3,5,4")
                .option("partitions", "3")
                .load();

        assertThat(table.schema().fieldNames()).containsExactly("index", "tensor");
        assertThat(((ArrayType) table.schema().apply("tensor").dataType()).elementType())
                .isEqualTo(DataTypes.IntegerType);
        assertThat(table.schema().apply("tensor").metadata().getLongArray(SparkTypes.SHAPE_METADATA))
                .containsExactly(
                        manifest.rowShape().stream().mapToLong(Long::longValue).toArray());
        assertThat(manifest.rows()).isEqualTo(6);
        assertThat(rows(table)).hasSize(6).isEqualTo(rows(broadcast));
        assertThat(table.rdd().getNumPartitions()).isEqualTo(3);
    }

    /**
     * A feature table's kept columns (int64, int32, float64, string with nulls, date, timestamp, bool, int8) come back
     * next to the tensor with the types and values Spark's own Parquet reader gives them in {@code expand}'s Parquet
     * output; a filter on one is Spark's, after the read.
     */
    @ParameterizedTest
    @ValueSource(strings = {"arrow", "parquet"})
    void keptColumnsComeBackAsSparksParquetReaderReadsThem(String format) throws Exception {
        Path input = KeptFixtures.copy("parquet", dir.resolve("table"));
        String output = expandKept(input, format);
        String parquet = format.equals("parquet") ? output : expandKept(input, "parquet");

        Dataset<Row> table = spark().read().format("tensorbroadcast").load(output);
        Dataset<Row> spark = spark().read().parquet(parquet);

        assertThat(table.schema().fieldNames())
                .containsExactly(Stream.concat(Stream.of("index", "tensor"), KeptFixtures.KEPT.stream())
                        .toArray(String[]::new));
        for (String kept : KeptFixtures.KEPT) {
            assertThat(table.schema().apply(kept).dataType())
                    .as(kept)
                    .isEqualTo(spark.schema().apply(kept).dataType());
        }
        List<Row> rows = table.orderBy("index").collectAsList();
        assertThat(rows)
                .hasSize(KeptFixtures.ROWS)
                .isEqualTo(spark.orderBy("index").collectAsList());
        assertThat((String) rows.get(7).getAs("name")).isNull();
        assertThat((String) rows.get(8).getAs("name")).isEqualTo("u8");
        assertThat(table.where("label = 1 and index < 30").orderBy("index").collectAsList())
                .extracting(row -> row.getLong(0))
                .containsExactly(1L, 4L, 7L, 10L, 13L, 16L, 19L, 22L, 25L, 28L);
        assertThat(spark().read()
                        .format("tensorbroadcast")
                        .load(output)
                        .selectExpr("user_id", "tensor[8]")
                        .where("index = 599")
                        .first())
                .isEqualTo(RowFactory.create(599L, 599f));
    }

    /** The kept-columns fixture [600,1,8] expanded to [600,3,8] as {@code format}, keeping its scalar columns. */
    private String expandKept(Path input, String format) {
        String output = dir.resolve("kept-" + format).toString();
        TensorBroadcast.builder()
                .source(input.toString())
                .column("features")
                .rowShape(Shape.of(1, 8))
                .keep(KeepColumns.of(KeptFixtures.KEPT.toArray(String[]::new)))
                .dialect(Dialect.PYTORCH)
                .shape(-1, 3, 8)
                .partitions(4)
                .format(OutputFormat.parse(format))
                .output(output)
                .build()
                .run(spark());
        return output;
    }

    @Test
    void filtersOnIndexReadOnlyThePartsThatHoldTheRows() throws IOException {
        String output = expand("parquet", 4);

        Dataset<Row> table =
                spark().read().format("tensorbroadcast").load(output).where("index >= 6");

        assertThat(table.rdd().getNumPartitions()).isEqualTo(1);
        assertThat(rows(table)).extracting(row -> row.get(0)).containsExactly(6L, 7L);
        assertThat(rows(table))
                .isEqualTo(rows(spark().read().format("tensorbroadcast").load(output))
                        .subList(6, 8));
        assertThat(spark().read()
                        .format("tensorbroadcast")
                        .load(output)
                        .where("index = 2 or index = 3")
                        .count())
                .isEqualTo(2);
        assertThat(spark().read()
                        .format("tensorbroadcast")
                        .load(output)
                        .where("index < 0")
                        .rdd()
                        .getNumPartitions())
                .isZero();
    }

    @Test
    void sqlReadsADatasetByItsPath() throws IOException {
        String output = expand("arrow", 2);
        spark().sql("CREATE TEMPORARY VIEW d USING tensorbroadcast OPTIONS (path '" + output + "')");
        try {
            List<Row> rows = spark().sql("SELECT index, tensor[1] FROM d WHERE index BETWEEN 3 AND 4 ORDER BY index")
                    .collectAsList();

            assertThat(rows).extracting(row -> row.getLong(0)).containsExactly(3L, 4L);
            // every row is the source row [1,4] of int32 values 0..3 as NpyFiles writes them
            assertThat(rows).extracting(row -> row.getInt(1)).containsExactly(NpyFiles.value(1), NpyFiles.value(1));
        } finally {
            spark().catalog().dropTempView("d");
        }
    }

    @Test
    void anIncompleteDatasetIsRefusedInOneLine() throws IOException {
        String output = expand("parquet", 2);
        Files.delete(Path.of(output, "_SUCCESS"));
        Files.delete(Path.of(output, "part-00001.parquet"));

        assertThatThrownBy(() -> spark().read().format("tensorbroadcast").load(output))
                .hasMessage("Cannot read " + output + ": the dataset is incomplete (no _SUCCESS; part-00001.parquet"
                        + " is missing); only a complete dataset can be read");
        assertThatThrownBy(() -> spark().read()
                        .format("tensorbroadcast")
                        .load(dir.resolve("none").toString()))
                .hasMessage("Cannot read " + dir.resolve("none") + ": no such directory");
        assertThatThrownBy(() -> spark().read()
                        .format("tensorbroadcast")
                        .option("dialect", "numpy")
                        .load(output))
                .hasMessage("Cannot read a tensorbroadcast dataset with option 'dialect': a dataset is read by its"
                        + " path alone (its manifest says the rest); give 'input' to read a broadcast");
    }

    /** Rows of [1,4] int32 broadcast to [8,4], written in {@code partitions} files of {@code format}. */
    private String expand(String format, int partitions) throws IOException {
        String input = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 4}).toString();
        String output = dir.resolve(format + partitions).toString();
        TensorBroadcast.builder()
                .source(input)
                .dialect(Dialect.NUMPY)
                .shape(8, 4)
                .partitions(partitions)
                .format(OutputFormat.parse(format))
                .output(output)
                .build()
                .run(spark());
        return output;
    }

    private static SparkSession spark() {
        return SPARK.session();
    }

    /** The rows in index order, as lists of Java values. */
    static List<List<Object>> rows(Dataset<Row> rows) {
        List<List<Object>> values = new ArrayList<>();
        for (Row row : rows.orderBy("index").collectAsList()) {
            values.add(List.of(row.getLong(0), row.getList(1)));
        }
        return values;
    }
}
