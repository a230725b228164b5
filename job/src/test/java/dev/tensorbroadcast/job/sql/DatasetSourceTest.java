package dev.tensorbroadcast.job.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.format.RowLayout;
import dev.tensorbroadcast.job.OutputFormat;
import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import dev.tensorbroadcast.planner.Dialect;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
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
