package dev.tensorbroadcast.job.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.arrowio.source.KeptFixtures;
import dev.tensorbroadcast.job.KeepColumns;
import dev.tensorbroadcast.job.OutputFormat;
import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.Shape;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Filters on kept columns of a Parquet dataset skip the row groups whose statistics exclude them, and the rows are
 * those of the whole read filtered in Java, on a real local Spark.
 */
class KeptFilterPushdownTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    static Path dir;

    private static String parquet;
    private static String arrow;

    /**
     * The kept-columns fixture [600,1,8] expanded to [600,512,8] in two files: rows of 16 KiB, row groups of 1 MiB (64
     * rows) in Parquet.
     */
    @BeforeAll
    static void expand() throws Exception {
        Path input = KeptFixtures.copy("parquet", dir.resolve("table"));
        parquet = expand(input, "parquet");
        arrow = expand(input, "arrow");
    }

    /** Each filter against the same rows filtered in Java: a row a skipped row group held would be missing. */
    static final Map<String, Predicate<Row>> FILTERS = Map.ofEntries(
            Map.entry("user_id >= 550", row -> row.<Long>getAs("user_id") >= 550),
            Map.entry("user_id < 40", row -> row.<Long>getAs("user_id") < 40),
            Map.entry(
                    "user_id > 580 OR user_id <= 4",
                    row -> row.<Long>getAs("user_id") > 580 || row.<Long>getAs("user_id") <= 4),
            Map.entry("user_id = 123", row -> row.<Long>getAs("user_id") == 123),
            Map.entry("user_id IN (3, 450)", row -> List.of(3L, 450L).contains(row.<Long>getAs("user_id"))),
            Map.entry(
                    "label = 1 AND user_id <= 40",
                    row -> row.<Integer>getAs("label") == 1 && row.<Long>getAs("user_id") <= 40),
            Map.entry("small > 40", row -> row.<Byte>getAs("small") > 40),
            Map.entry("small <= -45", row -> row.<Byte>getAs("small") <= -45),
            Map.entry("score <= 10.5", row -> row.<Double>getAs("score") <= 10.5),
            Map.entry("score > 290.0", row -> row.<Double>getAs("score") > 290.0),
            Map.entry("name = 'u78'", row -> "u78".equals(row.getAs("name"))),
            Map.entry(
                    "name < 'u2'",
                    row -> row.getAs("name") != null
                            && row.<String>getAs("name").compareTo("u2") < 0),
            Map.entry("name IS NULL", row -> row.getAs("name") == null),
            Map.entry(
                    "name IS NOT NULL AND user_id < 30",
                    row -> row.getAs("name") != null && row.<Long>getAs("user_id") < 30),
            Map.entry("flag = true AND index >= 590", row -> row.<Boolean>getAs("flag") && row.getLong(0) >= 590));

    @Test
    void filteredRowsAreTheWholeReadsFilteredInJava() {
        // the tensors of 600 rows are 9.4 MiB: compared whole for one filter, by index and kept values for all
        List<Row> all = read(parquet).drop("tensor").orderBy("index").collectAsList();
        assertThat(all).hasSize(KeptFixtures.ROWS);
        for (Map.Entry<String, Predicate<Row>> filter : FILTERS.entrySet()) {
            List<Row> expected = all.stream().filter(filter.getValue()).toList();
            assertThat(read(parquet)
                            .where(filter.getKey())
                            .drop("tensor")
                            .orderBy("index")
                            .collectAsList())
                    .as(filter.getKey())
                    .isNotEmpty()
                    .isEqualTo(expected);
            assertThat(read(arrow)
                            .where(filter.getKey())
                            .drop("tensor")
                            .orderBy("index")
                            .collectAsList())
                    .as(filter.getKey())
                    .isEqualTo(expected);
        }
        List<Row> whole = read(parquet).orderBy("index").collectAsList();
        assertThat(read(parquet).where("user_id >= 550").orderBy("index").collectAsList())
                .isEqualTo(whole.subList(550, 600));
    }

    @Test
    void rowGroupsTheStatisticsExcludeAreNotRead() {
        // 50 of 600 rows: the Parquet scan reads the last row groups alone, the Arrow scan every row
        assertThat(rowsScanned(read(parquet).where("user_id >= 550"))).isBetween(50L, 149L);
        assertThat(rowsScanned(read(arrow).where("user_id >= 550"))).isEqualTo(KeptFixtures.ROWS);
        assertThat(rowsScanned(read(parquet).where("user_id < 10 OR user_id >= 590")))
                .isBetween(20L, 249L);
        assertThat(rowsScanned(read(parquet).where("user_id = 1000"))).isZero();
        assertThat(read(parquet).where("user_id = 1000").rdd().getNumPartitions())
                .isZero();
        // small is r % 100 - 50: above 40 in 9 rows of each 100, which some row groups of 64 rows miss
        assertThat(rowsScanned(read(parquet).where("small > 40"))).isBetween(54L, 599L);
        // no statistics exclude a row group of a column whose values repeat in each one
        assertThat(rowsScanned(read(parquet).where("flag = true"))).isEqualTo(KeptFixtures.ROWS);
        assertThat(rowsScanned(read(parquet).where("name IS NULL"))).isEqualTo(KeptFixtures.ROWS);
        assertThat(rowsScanned(read(parquet).where("name IS NOT NULL AND user_id < 30")))
                .isBetween(30L, 149L);
    }

    /** The rows the data source's scan gave Spark, before Spark's filter: what the tasks read. */
    private static long rowsScanned(Dataset<Row> query) {
        Dataset<Row> kept = query.drop("tensor");
        long matched = kept.collectAsList().size();
        SparkPlan plan = kept.queryExecution().executedPlan();
        List<SparkPlan> scans = CollectionConverters.asJava(plan.collectLeaves()).stream()
                .filter(BatchScanExec.class::isInstance)
                .toList();
        assertThat(scans).hasSize(1);
        long scanned = (long) scans.get(0).metrics().apply("numOutputRows").value();
        assertThat(scanned).isGreaterThanOrEqualTo(matched);
        return scanned;
    }

    private static String expand(Path input, String format) {
        String output = dir.resolve("kept-" + format).toString();
        TensorBroadcast.builder()
                .source(input.toString())
                .column("features")
                .rowShape(Shape.of(1, 8))
                .keep(KeepColumns.of(KeptFixtures.KEPT.toArray(String[]::new)))
                .dialect(Dialect.PYTORCH)
                .shape(-1, 512, 8)
                .partitions(2)
                .format(OutputFormat.parse(format))
                .rowGroupBytes(1 << 20)
                .output(output)
                .build()
                .run(spark());
        return output;
    }

    private static Dataset<Row> read(String path) {
        return spark().read().format("tensorbroadcast").load(path);
    }

    private static SparkSession spark() {
        return SPARK.session();
    }
}
