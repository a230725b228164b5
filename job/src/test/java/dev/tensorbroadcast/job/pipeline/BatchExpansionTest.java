package dev.tensorbroadcast.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.arrowio.source.DatasetFixtures;
import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.manifest.DatasetFile;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.SourceRead;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A feature table of 40 rows of [1,256] in three files (Arrow IPC from Arrow Java, Parquet from DuckDB, Parquet from
 * Spark's own writer) expanded per row to [3,256], the batch dim kept with -1: values equal the reference, and each
 * task read only its slice.
 */
class BatchExpansionTest {
    private static final int ROW = FeatureTable.ROW;

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

    private Path features() throws Exception {
        return FeatureTable.write(dir.resolve("features"), spark);
    }

    private TensorBroadcast.Builder expand(Path features, Path output) {
        return FeatureTable.expand(features.toString(), output.toString());
    }

    private static void assertExpanded(Path output, Manifest manifest) throws Exception {
        FeatureTable.assertExpanded(output, manifest);
    }

    @Test
    void aDatasetOverTheThresholdIsReadBySlices() throws Exception {
        Path features = features();
        Path output = dir.resolve("out");
        long a = Files.size(features.resolve("a.arrow"));
        long b = Files.size(features.resolve("b.parquet"));
        long c = Files.size(features.resolve("c-spark.parquet"));

        TensorBroadcast broadcast = expand(features, output).shipThreshold(0).build();
        assertThat(broadcast.prepare(spark.sparkContext().hadoopConfiguration()).sourceStrategy(0))
                .isEqualTo("slices");
        Manifest manifest = broadcast.run(spark);

        assertExpanded(output, manifest);
        FeatureTable.assertEachTaskReadItsSlice(
                manifest.files().stream().map(DatasetFile::sourceRead).toList(), a, b, c);
    }

    @Test
    void aDatasetUpToTheThresholdIsShippedWhole() throws Exception {
        Path features = features();
        Path output = dir.resolve("out");

        Manifest manifest = expand(features, output).build().run(spark);

        assertExpanded(output, manifest);
        assertThat(manifest.files()).extracting(DatasetFile::sourceRead).containsOnly(new SourceRead(0, 40, 0));
    }

    @Test
    void aBadRowFoundByATaskIsTheUsersError() throws Exception {
        Path features = Files.createDirectory(dir.resolve("bad"));
        DatasetFixtures.duckdbLists(features.resolve("a.parquet"), 0, 10, ROW, false);
        DatasetFixtures.sql("COPY (SELECT CASE WHEN i = 16 THEN [1.0::FLOAT] ELSE [CAST(k AS FLOAT) FOR k IN range("
                + ROW + ")] END AS tensor FROM range(10, 20) t(i) ORDER BY i) TO '" + features.resolve("b.parquet")
                + "' (FORMAT PARQUET)");

        TensorBroadcast broadcast = expand(features, dir.resolve("out"))
                .shipThreshold(0)
                .partitions(2)
                .build();

        assertThatThrownBy(() -> broadcast.run(spark))
                .isInstanceOf(SourceFormatException.class)
                .hasMessage("Cannot read file:" + features.resolve("b.parquet") + ": row 6 has 1 values; every row"
                        + " needs " + ROW + " (rowShape)");
        assertThat(dir.resolve("out").resolve(Manifest.SUCCESS_FILE_NAME)).doesNotExist();
    }
}
