package dev.tensorbroadcast.job.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.source.KeptFixtures;
import dev.tensorbroadcast.job.KeepColumns;
import dev.tensorbroadcast.job.OutputFormat;
import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.Shape;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.Statistics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A broadcast read whose input is a feature table carries its kept columns after {@code tensor}: the rows (index,
 * tensor, kept values with their nulls) are those of the dataset {@code expand --keep} writes for the same request, read
 * back with {@code load(dir)}, on a real local Spark.
 */
class BroadcastKeptTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    private static final String KEPT = String.join(",", KeptFixtures.KEPT);

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"parquet", "arrow"})
    void keptColumnsAreThoseExpandWrites(String format) throws Exception {
        Path input = KeptFixtures.copy(format, dir.resolve("table"));
        String output = expand(input, 4, KeepColumns.of(KeptFixtures.KEPT.toArray(String[]::new)));

        Dataset<Row> table = broadcast(input, 4).option("keep", KEPT).load();
        Dataset<Row> written = spark().read().format("tensorbroadcast").load(output);

        assertThat(table.schema().fieldNames())
                .containsExactly(Stream.concat(Stream.of("index", "tensor"), KeptFixtures.KEPT.stream())
                        .toArray(String[]::new));
        for (String kept : KeptFixtures.KEPT) {
            assertThat(table.schema().apply(kept).dataType())
                    .as(kept)
                    .isEqualTo(written.schema().apply(kept).dataType());
        }
        List<Row> rows = table.orderBy("index").collectAsList();
        assertThat(rows)
                .hasSize(KeptFixtures.ROWS)
                .isEqualTo(written.orderBy("index").collectAsList());
        // the fixture's name is null where the row is a multiple of 7
        assertThat((String) rows.get(14).getAs("name")).isNull();
        assertThat((String) rows.get(15).getAs("name")).isEqualTo("u15");
        assertThat(rows.get(599).<Long>getAs("user_id")).isEqualTo(599L);
        assertThat(table.rdd().getNumPartitions()).isEqualTo(4);
    }

    @Test
    void theOptimizerCountsTheKeptColumnsInTheSize() throws Exception {
        Path input = KeptFixtures.copy("parquet", dir.resolve("table"));

        Statistics kept = broadcast(input, 4)
                .option("keep", KEPT)
                .load()
                .queryExecution()
                .optimizedPlan()
                .stats();
        Statistics none = broadcast(input, 4)
                .option("keep", "none")
                .load()
                .queryExecution()
                .optimizedPlan()
                .stats();

        assertThat(kept.rowCount().get().longValue()).isEqualTo(KeptFixtures.ROWS);
        // 600 rows of [3,8] float32 and an 8-byte index, then per row user_id 8, label 4, score 8, name 20 (Spark's
        // size of a string), day 4, seen 8, flag 1, small 1
        assertThat(none.sizeInBytes().longValue()).isEqualTo(600L * (96 + 8));
        assertThat(kept.sizeInBytes().longValue()).isEqualTo(600L * (96 + 8 + 54));
        // the same rows written with their kept columns and read back by the manifest
        String output = expand(input, 4, KeepColumns.of(KeptFixtures.KEPT.toArray(String[]::new)));
        Statistics written = spark().read()
                .format("tensorbroadcast")
                .load(output)
                .queryExecution()
                .optimizedPlan()
                .stats();
        assertThat(written.sizeInBytes().longValue()).isEqualTo(600L * (96 + 8 + 54));
    }

    /**
     * With more partitions than source rows, a row is one [8] of [6,3,8]: three rows take one source row's values.
     * The feature table is Spark's own Parquet.
     */
    @Test
    void aSourceRowFillsEachRowItGrows() throws Exception {
        Path input = dir.resolve("spark-table");
        spark().range(6)
                .selectExpr(
                        "id AS user_id",
                        "IF(id % 4 = 1, NULL, concat('u', id)) AS name",
                        "transform(sequence(0, 7), i -> CAST(id + i / 8 AS float)) AS features")
                .coalesce(1)
                .write()
                .parquet(input.toString());
        String output = expand(input, 7, KeepColumns.all());

        Dataset<Row> table = broadcast(input, 7).load();
        List<Row> rows = table.orderBy("index").collectAsList();

        assertThat(table.rdd().getNumPartitions()).isEqualTo(7);
        assertThat(rows)
                .hasSize(18)
                .isEqualTo(spark().read()
                        .format("tensorbroadcast")
                        .load(output)
                        .orderBy("index")
                        .collectAsList());
        assertThat(rows)
                .extracting(row -> row.getLong(2))
                .containsExactly(0L, 0L, 0L, 1L, 1L, 1L, 2L, 2L, 2L, 3L, 3L, 3L, 4L, 4L, 4L, 5L, 5L, 5L);
        assertThat(rows.subList(3, 6)).extracting(row -> row.get(3)).containsExactly(null, null, null);
        assertThat(rows.subList(6, 9)).extracting(row -> row.get(3)).containsExactly("u2", "u2", "u2");
        assertThat(rows.subList(15, 18)).extracting(row -> row.get(3)).containsExactly(null, null, null);
    }

    @Test
    void keepAllIsTheDefaultAndNoneKeepsNone() throws Exception {
        Path input = KeptFixtures.copy("parquet", dir.resolve("table"));

        // the fixture's tags (a list of strings) cannot be kept: every column by default is refused, as expand refuses
        assertThatThrownBy(() -> broadcast(input, 4).load())
                .hasMessage("Cannot keep column 'tags' of input '" + input
                        + "': it is optional group tags (LIST) { repeated group list {"
                        + " optional binary element (STRING); } }; a kept column holds one number, boolean, string,"
                        + " binary, date or timestamp per row; choose the columns to keep with"
                        + " --keep " + KEPT + ", or keep none with --keep none");
        assertThat(broadcast(input, 4).option("keep", "none").load().schema().fieldNames())
                .containsExactly("index", "tensor");
        assertThat(broadcast(input, 4).option("KEEP", "label").load().schema().fieldNames())
                .containsExactly("index", "tensor", "label");
    }

    @Test
    void badKeepIsRefusedInTheCommandLinesLine() throws Exception {
        Path input = KeptFixtures.copy("parquet", dir.resolve("table"));
        String npy = NpyFiles.int32(dir.resolve("in.npy"), new long[] {2, 1, 8}).toString();

        assertThatThrownBy(() ->
                        broadcast(input, 4).option("keep", "user_id,,label").load())
                .hasMessage("Cannot keep columns 'user_id,,label': a name is empty; give column names separated by"
                        + " commas (such as --keep user_id,label), all, or none");
        assertThatThrownBy(
                        () -> broadcast(input, 4).option("keep", "user_id,nope").load())
                .hasMessage("Cannot keep column 'nope' of input '" + input + "': it has no such column; its other"
                        + " columns are user_id, label, score, name, day, seen, flag, small, tags");
        assertThatThrownBy(() -> broadcast(input, 4).option("keep", "features").load())
                .hasMessage("Cannot keep column 'features' of input '" + input + "': it is the tensor column, which the"
                        + " output holds expanded as 'tensor'; leave it out of --keep");
        assertThatThrownBy(() -> read().option("input", npy)
                        .option("dialect", "numpy")
                        .option("shape", "2,3,8")
                        .option("keep", "label")
                        .load())
                .hasMessage(
                        "Cannot keep columns label of input '" + npy + "': it is a single tensor, with no columns to"
                                + " keep; columns are kept from a dataset (a directory of Arrow IPC or Parquet files, or one"
                                + " Parquet file)");
    }

    /** The kept-columns fixture [600,1,8] expanded to [600,3,8] by {@code expand}, as an Arrow dataset. */
    private String expand(Path input, int partitions, KeepColumns keep) {
        String output = dir.resolve("expanded").toString();
        TensorBroadcast.builder()
                .source(input.toString())
                .column("features")
                .rowShape(Shape.of(1, 8))
                .keep(keep)
                .dialect(Dialect.PYTORCH)
                .shape(-1, 3, 8)
                .partitions(partitions)
                .format(OutputFormat.parse("arrow"))
                .output(output)
                .build()
                .run(spark());
        return output;
    }

    /** The same request as {@link #expand}, read without writing it. */
    private DataFrameReader broadcast(Path input, int partitions) {
        return read().option("input", input.toString())
                .option("column", "features")
                .option("row-shape", "1,8")
                .option("dialect", "pytorch")
                .option("shape", "-1,3,8")
                .option("partitions", Integer.toString(partitions));
    }

    private DataFrameReader read() {
        return spark().read().format("tensorbroadcast");
    }

    private static SparkSession spark() {
        return SPARK.session();
    }
}
