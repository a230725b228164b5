package dev.tensorbroadcast.job.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.planner.BroadcastException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.jdk.javaapi.CollectionConverters;

/**
 * {@code tensor_broadcast_to} and {@code tensor_shape} through {@code spark.sql.extensions} on a real local Spark: in
 * SQL and as the expressions PySpark's {@code F.expr} sends.
 */
class TensorFunctionsTest {
    private static SparkSession spark;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        spark = SparkSession.builder()
                .master("local[2]")
                .appName("tensor-functions-test")
                .config("spark.ui.enabled", "false")
                .config("spark.ui.showConsoleProgress", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.sql.extensions", TensorFunctions.class.getName())
                .getOrCreate();
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    @Test
    void broadcastsARowByNumpysRule() {
        Row row = spark.sql("SELECT tensor_broadcast_to(array(1, 2, 3), array(2, 3))")
                .first();

        assertThat(nested(row, 0)).containsExactly(List.of(1, 2, 3), List.of(1, 2, 3));
        assertThat(nested(
                        spark.sql("SELECT tensor_broadcast_to(array(array(1.5D), array(2.5D)), array(2, 3),"
                                        + " 'numpy')")
                                .first(),
                        0))
                .containsExactly(List.of(1.5, 1.5, 1.5), List.of(2.5, 2.5, 2.5));
    }

    @Test
    void eachDialectHasItsRule() {
        // onnx's Expand is bidirectional: a target dim of 1 takes the input's
        assertThat(nested(
                        spark.sql("SELECT tensor_broadcast_to(array(array(1L), array(2L)), array(1, 3), 'onnx')")
                                .first(),
                        0))
                .containsExactly(List.of(1L, 1L, 1L), List.of(2L, 2L, 2L));
        // pytorch's -1 keeps the input's dim
        assertThat(nested(
                        spark.sql("SELECT tensor_broadcast_to(array(array(true, false)), array(3, -1)," + " 'pytorch')")
                                .first(),
                        0))
                .containsExactly(List.of(true, false), List.of(true, false), List.of(true, false));
        // numpy refuses what onnx takes, in the command line's words, when the row is read
        assertThatThrownBy(() -> spark.sql("SELECT tensor_broadcast_to(array(array(1L), array(2L)), array(1, 3))")
                        .collect())
                .hasStackTraceContaining("Cannot broadcast (2,1) to (1,3) [numpy]: dim 0 is 2 in the input and 1 in"
                        + " the target; only 1 can grow");
    }

    @Test
    void theDataSourcesColumnBroadcastsByItsShape() throws IOException {
        String input = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 4}).toString();
        spark.sql("CREATE TEMPORARY VIEW b USING tensorbroadcast OPTIONS (input '" + input + "', dialect 'numpy',"
                + " shape '3,2,4')");
        try {
            List<Integer> source = List.of(NpyFiles.value(0), NpyFiles.value(1), NpyFiles.value(2), NpyFiles.value(3));
            Row row = spark.sql("SELECT tensor_shape(tensor), tensor_broadcast_to(tensor, array(2, 2, 4)) FROM b"
                            + " WHERE index = 1")
                    .first();

            assertThat(row.getList(0)).containsExactly(2L, 4L);
            List<Object> matrices = row.getList(1);
            assertThat(matrices)
                    .hasSize(2)
                    .allSatisfy(matrix -> assertThat(CollectionConverters.asJava((scala.collection.Seq<?>) matrix))
                            .extracting(TensorFunctionsTest::list)
                            .containsExactly(source, source));
            // the shape is the column's: a bad target is refused when the query is analysed
            assertThatThrownBy(() -> spark.sql("SELECT tensor_broadcast_to(tensor, array(3, 4)) FROM b"))
                    .isInstanceOf(BroadcastException.class)
                    .hasMessage("Cannot broadcast (2,4) to (3,4) [numpy]: dim 0 is 2 in the input and 3 in the"
                            + " target; only 1 can grow (the input needs 3 or 1 there)");
        } finally {
            spark.catalog().dropTempView("b");
        }
    }

    @Test
    void expressionsReachTheFunctionsAsPySparksFExprDoes() {
        List<Row> rows = spark.range(3)
                .select(
                        functions
                                .expr("tensor_shape(array(array(id, id), array(id, id)," + " array(id, id)))")
                                .as("shape"),
                        functions
                                .expr("tensor_broadcast_to(array(id), array(2, 2))")
                                .as("b"))
                .orderBy("b")
                .collectAsList();

        assertThat(rows).extracting(row -> row.getList(0)).containsOnly(List.of(3L, 2L));
        assertThat(nested(rows.get(2), 1)).containsExactly(List.of(2L, 2L), List.of(2L, 2L));
    }

    @Test
    void badArgumentsAreRefusedInOneLine() {
        assertThatThrownBy(() -> spark.sql("SELECT tensor_broadcast_to(array(1), array(2), 'tensorflow')"))
                .hasMessage("Cannot parse dialect 'tensorflow': expected numpy, mindspore, pytorch, paddle, onnx,"
                        + " openvino or ngraph");
        assertThatThrownBy(() -> spark.range(1).selectExpr("tensor_broadcast_to(array(1), array(id))"))
                .hasMessage("Cannot call tensor_broadcast_to with target array(id): give a constant array of"
                        + " integers, such as array(8, 64)");
        assertThatThrownBy(() -> spark.sql("SELECT tensor_broadcast_to(1, array(2))"))
                .hasMessage("Cannot call tensor_broadcast_to on int: give an array, one level per dim, or this data"
                        + " source's tensor column");
    }

    /** A column of nested arrays as Java lists, one level down. */
    private static List<List<?>> nested(Row row, int column) {
        return row.getList(column).stream().map(TensorFunctionsTest::list).toList();
    }

    private static List<?> list(Object seq) {
        return CollectionConverters.asJava((scala.collection.Seq<?>) seq);
    }
}
