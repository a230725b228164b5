package dev.tensorbroadcast.job.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.OutputFormat;
import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.planner.Dialect;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** What the store ITs check: a dataset {@code expand} wrote to a store, read back through the data source. */
final class StoredDatasets {
    private StoredDatasets() {}

    /**
     * Writes {@code input} ([1,4] int32) broadcast to [8,2,4] as {@code format} at {@code output}, then reads it back
     * with {@code load(output)}: the rows equal the broadcast read without writing it, the shape is in the schema and
     * a filter on {@code index} keeps its rows.
     */
    static void assertReadsBack(SparkSession spark, String input, String output, String format) {
        TensorBroadcast.builder()
                .source(input)
                .dialect(Dialect.NUMPY)
                .shape(8, 2, 4)
                .partitions(2)
                .format(OutputFormat.parse(format))
                .output(output)
                .build()
                .run(spark);

        Dataset<Row> table = spark.read().format("tensorbroadcast").load(output);
        Dataset<Row> broadcast = spark.read()
                .format("tensorbroadcast")
                .option("input", input)
                .option("dialect", "numpy")
                .option("shape", "8,2,4")
                .load();

        assertThat(table.schema().apply("tensor").metadata().getLongArray(SparkTypes.SHAPE_METADATA))
                .as(output)
                .containsExactly(2, 4);
        assertThat(DatasetSourceTest.rows(table)).as(output).hasSize(8).isEqualTo(DatasetSourceTest.rows(broadcast));
        assertThat(DatasetSourceTest.rows(table.where("index >= 4")))
                .as(output)
                .isEqualTo(DatasetSourceTest.rows(broadcast).subList(4, 8));
    }
}
