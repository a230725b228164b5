package dev.tensorbroadcast.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.planner.BroadcastMode;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.TargetShape;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A feature column of a user's Dataset<Row> expanded row by row, as a pipeline would, and written by Spark. */
class ColumnExpansionTest {
    private static SparkSession spark;

    @TempDir
    Path dir;

    @BeforeAll
    static void startSpark() {
        spark = LocalSpark.start();
    }

    @AfterAll
    static void stopSpark() {
        spark.stop();
    }

    /** User {@code id} has embedding {@code [1,4]} with values {@code id * 10 + k}; user 3 has none (null). */
    private static Dataset<Row> users() {
        List<Row> rows = new ArrayList<>();
        for (long id = 0; id < 6; id++) {
            double[] embedding = {id * 10, id * 10 + 1, id * 10 + 2, id * 10 + 3};
            rows.add(RowFactory.create(id, "user" + id, id == 3 ? null : embedding));
        }
        StructType schema = new StructType()
                .add("id", DataTypes.LongType, false)
                .add("name", DataTypes.StringType)
                .add("embedding", DataTypes.createArrayType(DataTypes.DoubleType, false));
        return spark.createDataFrame(rows, schema).repartition(3);
    }

    @Test
    void embeddingsExpandPerRowAndTheOtherColumnsPassThrough() {
        Dataset<Row> expanded =
                TensorBroadcast.expandColumn(users(), "embedding", Shape.of(1, 4), TargetShape.of(3, 4), Dialect.NUMPY);

        assertThat(expanded.schema().apply("embedding").dataType())
                .isEqualTo(DataTypes.createArrayType(DataTypes.DoubleType, false));
        // the array is flat; the row's shape rides in the column's metadata
        assertThat(expanded.schema().apply("embedding").metadata().getLongArray(RowDatasets.SHAPE_METADATA))
                .containsExactly(3, 4);
        List<Row> rows = expanded.orderBy("id").collectAsList();
        assertThat(rows).hasSize(6);
        for (Row row : rows) {
            long id = row.getLong(0);
            assertThat(row.getString(1)).isEqualTo("user" + id);
            if (id == 3) {
                assertThat(row.isNullAt(2)).isTrue();
                continue;
            }
            List<Double> expected = new ArrayList<>();
            for (int j = 0; j < 12; j++) {
                expected.add(id * 10.0 + j % 4);
            }
            assertThat(row.<Double>getList(2)).as("user %d", id).isEqualTo(expected);
        }
    }

    @Test
    void anyDialectsRuleAppliesToTheRow() throws Exception {
        // OpenVINO explicit: the row's [4] lands on axis 1 of [2,4,2]
        BroadcastRequest request = BroadcastRequest.builder(Dialect.OPENVINO)
                .input(Shape.of(4))
                .target(TargetShape.of(2, 4, 2))
                .mode(BroadcastMode.EXPLICIT)
                .axesMapping(1)
                .build();
        Path written = dir.resolve("expanded");

        TensorBroadcast.expandColumn(users().filter("id = 1"), "embedding", request)
                .write()
                .parquet(written.toString());

        Dataset<Row> read = spark.read().parquet(written.toString());
        // Spark's Parquet files keep the shape with the column
        assertThat(read.schema().apply("embedding").metadata().getLongArray(RowDatasets.SHAPE_METADATA))
                .containsExactly(2, 4, 2);
        Row row = read.collectAsList().get(0);
        assertThat(row.<Double>getList(2))
                .containsExactly(
                        10.0, 10.0, 11.0, 11.0, 12.0, 12.0, 13.0, 13.0, 10.0, 10.0, 11.0, 11.0, 12.0, 12.0, 13.0, 13.0);
    }

    @Test
    void badColumnsAndRowsAreRefusedInOneLine() {
        assertThatThrownBy(() ->
                        TensorBroadcast.expandColumn(users(), "name", Shape.of(4), TargetShape.of(2, 4), Dialect.NUMPY))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot expand column 'name': it is string; expected an array of tinyint, smallint, int,"
                        + " bigint, float or double");
        assertThatThrownBy(() -> TensorBroadcast.expandColumn(
                        users(), "missing", Shape.of(4), TargetShape.of(2, 4), Dialect.NUMPY))
                .hasMessage("Cannot expand column 'missing': there is no such column; the columns are"
                        + " [id, name, embedding]");
        Dataset<Row> wrongLength =
                TensorBroadcast.expandColumn(users(), "embedding", Shape.of(5), TargetShape.of(2, 5), Dialect.NUMPY);
        assertThatThrownBy(wrongLength::collectAsList)
                .rootCause()
                .hasMessage("Cannot expand column 'embedding': a row has 4 values; rows of [5] have 5");
    }
}
