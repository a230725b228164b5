package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import java.nio.file.Path;
import java.sql.Date;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A feature table Spark wrote with {@code partitionBy("day", "bucket")}: expanded with its partition keys kept as
 * typed columns (a date, an integer), rows in path order; read back by Spark.
 */
class HivePartitionsCommandTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    Path dir;

    @Test
    void sparksPartitionedTableKeepsItsKeysTyped() throws Exception {
        SparkSession spark = SPARK.session();
        List<Row> source = new ArrayList<>();
        for (int r = 0; r < 60; r++) {
            float[] features = new float[8];
            for (int e = 0; e < 8; e++) {
                features[e] = r + e / 8f;
            }
            source.add(RowFactory.create((long) r, Date.valueOf(LocalDate.of(2024, 3, 1 + r % 3)), r % 2, features));
        }
        StructType schema = new StructType()
                .add("user_id", DataTypes.LongType)
                .add("day", DataTypes.DateType)
                .add("bucket", DataTypes.IntegerType)
                .add("features", DataTypes.createArrayType(DataTypes.FloatType, false));
        Path input = dir.resolve("table");
        spark.createDataFrame(source, schema)
                .write()
                .partitionBy("day", "bucket")
                .parquet(input.toString());
        Path output = dir.resolve("out");

        CliRun plan = CliRun.of(
                "plan",
                "--input",
                input.toString(),
                "--column",
                "features",
                "--row-shape",
                "[1,8]",
                "--dialect",
                "pytorch",
                "--shape",
                "[-1,2,8]");
        CliRun run = CliRun.of(
                "expand",
                "--input",
                input.toString(),
                "--column",
                "features",
                "--row-shape",
                "[1,8]",
                "--dialect",
                "pytorch",
                "--shape",
                "[-1,2,8]",
                "--format",
                "parquet",
                "--ship-threshold",
                "0",
                "--output",
                output.toString());

        assertThat(plan.exitCode()).as(plan.err()).isZero();
        assertThat(plan.out()).contains("\nkept columns  user_id int64, day date32, bucket int32\n");
        assertThat(run.exitCode()).as(run.err()).isZero();
        List<Row> rows =
                spark.read().parquet(output.toString()).orderBy("index").collectAsList();
        assertThat(rows).hasSize(60);
        LocalDate previousDay = LocalDate.MIN;
        int previousBucket = -1;
        for (Row row : rows) {
            long u = row.getLong(row.fieldIndex("user_id"));
            LocalDate day = row.<Date>getAs("day").toLocalDate();
            int bucket = row.getInt(row.fieldIndex("bucket"));
            assertThat(day).isEqualTo(LocalDate.of(2024, 3, 1 + (int) (u % 3)));
            assertThat(bucket).isEqualTo((int) (u % 2));
            assertThat(row.getList(1).get(15)).isEqualTo(u + 7 / 8f);
            // path order: day=..., then bucket=... within it
            assertThat(day.isAfter(previousDay) || day.equals(previousDay) && bucket >= previousBucket)
                    .as("row %s after day %s bucket %s", row.getLong(0), previousDay, previousBucket)
                    .isTrue();
            previousDay = day;
            previousBucket = bucket;
        }
    }
}
