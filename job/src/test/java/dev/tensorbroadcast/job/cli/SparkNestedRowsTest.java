package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Spark's own {@code array<array<float>>} rows of [4,16], written by Spark and expanded per row, read back by Spark. */
class SparkNestedRowsTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    Path dir;

    private static float value(long row, int i, int j) {
        return row * 64 + i * 16 + j;
    }

    @Test
    void anArrayOfArraysIsARowOfTwoDims() throws Exception {
        List<Row> source = new ArrayList<>();
        for (long r = 0; r < 30; r++) {
            List<List<Float>> row = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                List<Float> inner = new ArrayList<>();
                for (int j = 0; j < 16; j++) {
                    inner.add(value(r, i, j));
                }
                row.add(inner);
            }
            source.add(RowFactory.create(r, row));
        }
        StructType schema = new StructType()
                .add("id", DataTypes.LongType)
                .add("x", DataTypes.createArrayType(DataTypes.createArrayType(DataTypes.FloatType)));
        Path input = dir.resolve("table");
        SPARK.session().createDataFrame(source, schema).coalesce(2).write().parquet(input.toString());
        Path output = dir.resolve("out");

        CliRun run = CliRun.of(
                "expand",
                "--input",
                input.toString(),
                "--column",
                "x",
                "--row-shape",
                "[1,4,16]",
                "--dialect",
                "pytorch",
                "--shape",
                "[-1,3,4,16]",
                "--format",
                "parquet",
                "--partitions",
                "3",
                "--ship-threshold",
                "0",
                "--output",
                output.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<Row> rows = SPARK.session()
                .read()
                .parquet(output.toString())
                .orderBy("index")
                .collectAsList();
        assertThat(rows).hasSize(30);
        for (Row row : rows) {
            long r = row.getLong(0);
            assertThat(row.getLong(row.fieldIndex("id"))).isEqualTo(r);
            List<Object> tensor = row.getList(1);
            assertThat(tensor).hasSize(3 * 64);
            for (int k = 0; k < 3 * 64; k++) {
                assertThat(tensor.get(k)).isEqualTo(value(r, k % 64 / 16, k % 16));
            }
        }
        CliRun wrongShape = CliRun.of(
                "expand",
                "--input",
                input.toString(),
                "--column",
                "x",
                "--row-shape",
                "[1,2,32]",
                "--dialect",
                "pytorch",
                "--shape",
                "[-1,3,2,32]",
                "--output",
                dir.resolve("bad").toString());
        assertThat(wrongShape.exitCode()).isEqualTo(2);
        assertThat(wrongShape.err().strip())
                .endsWith("has an inner list of 16 values; its innermost lists are the"
                        + " row's last dim, 32 (--row-shape)");
        assertThat(dir.resolve("bad")).doesNotExist();
    }
}
