package dev.tensorbroadcast.job.spark;

import static dev.tensorbroadcast.arrowio.source.DatasetFixtures.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.source.DatasetFixtures;
import dev.tensorbroadcast.arrowio.source.SourceFormatException;
import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.manifest.DatasetFile;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.SourceRead;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.Shape;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
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
    private static final int ROW = 256;
    /** What reading a file costs besides its batches: footer, schema, and the file system's 4 KiB buffer refills. */
    private static final long OVERHEAD = 12 << 10;

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

    /** Rows 0..9 Arrow IPC (two batches), 10..24 DuckDB Parquet, 25..39 Spark Parquet. */
    private Path features() throws Exception {
        Path features = Files.createDirectory(dir.resolve("features"));
        DatasetFixtures.arrowLists(features.resolve("a.arrow"), "tensor", 0, ROW, false, 5, 5);
        DatasetFixtures.duckdbLists(features.resolve("b.parquet"), 10, 25, ROW, false);
        List<Row> rows = new ArrayList<>();
        for (long r = 25; r < 40; r++) {
            float[] values = new float[ROW];
            for (int k = 0; k < ROW; k++) {
                values[k] = value(r, k);
            }
            rows.add(RowFactory.create((Object) values));
        }
        StructType schema = new StructType().add("tensor", DataTypes.createArrayType(DataTypes.FloatType, false));
        Path written = dir.resolve("spark-written");
        spark.createDataFrame(rows, schema).coalesce(1).write().parquet(written.toString());
        try (Stream<Path> files = Files.list(written)) {
            Path part = files.filter(file -> file.getFileName().toString().endsWith(".parquet")).findFirst()
                    .orElseThrow();
            Files.move(part, features.resolve("c-spark.parquet"));
        }
        Files.writeString(features.resolve("_SUCCESS"), "");
        return features;
    }

    private TensorBroadcast.Builder expand(Path features, Path output) {
        return TensorBroadcast.builder().source(features.toString()).rowShape(Shape.of(1, ROW))
                .dialect(Dialect.PYTORCH).shape(-1, 3, ROW).partitions(4).output(output.toString());
    }

    private static void assertExpanded(Path output, Manifest manifest) throws Exception {
        assertThat(manifest.shape()).containsExactly(40L, 3L, (long) ROW);
        List<DatasetFiles.ArrowRow> rows = DatasetFiles.arrowRows(output, manifest);
        assertThat(rows).hasSize(40);
        for (DatasetFiles.ArrowRow row : rows) {
            List<Object> expected = new ArrayList<>();
            for (int j = 0; j < 3 * ROW; j++) {
                expected.add(value(row.index(), j % ROW));
            }
            assertThat(row.values()).as("row %d", row.index()).isEqualTo(expected);
        }
    }

    @Test
    void aDatasetOverTheThresholdIsReadBySlices() throws Exception {
        Path features = features();
        Path output = dir.resolve("out");
        long a = Files.size(features.resolve("a.arrow"));
        long b = Files.size(features.resolve("b.parquet"));
        long c = Files.size(features.resolve("c-spark.parquet"));

        TensorBroadcast broadcast = expand(features, output).shipThreshold(0).build();
        assertThat(broadcast.prepare(spark.sparkContext().hadoopConfiguration()).source(0).strategy())
                .isEqualTo("slices");
        Manifest manifest = broadcast.run(spark);

        assertExpanded(output, manifest);
        List<SourceRead> reads = manifest.files().stream().map(DatasetFile::sourceRead).toList();
        assertThat(reads).extracting(SourceRead::firstRow).containsExactly(0L, 10L, 20L, 30L);
        assertThat(reads).extracting(SourceRead::rows).containsExactly(10L, 10L, 10L, 10L);
        // each task read the files of its slice, never the others: rows 0..9 are in a.arrow only, and so on
        assertThat(b).isGreaterThan(OVERHEAD);
        assertThat(c).isGreaterThan(OVERHEAD);
        assertThat(reads.get(0).bytesRead()).isBetween(a / 2, a + OVERHEAD);
        assertThat(reads.get(1).bytesRead()).isBetween(b / 2, b + OVERHEAD);
        assertThat(reads.get(2).bytesRead()).isBetween((b + c) / 2, b + c + 2 * OVERHEAD);
        assertThat(reads.get(3).bytesRead()).isBetween(c / 2, c + OVERHEAD);
    }

    @Test
    void aDatasetUpToTheThresholdIsShippedWhole() throws Exception {
        Path features = features();
        Path output = dir.resolve("out");

        Manifest manifest = expand(features, output).build().run(spark);

        assertExpanded(output, manifest);
        assertThat(manifest.files()).extracting(DatasetFile::sourceRead)
                .containsOnly(new SourceRead(0, 40, 0));
    }

    @Test
    void aBadRowFoundByATaskIsTheUsersError() throws Exception {
        Path features = Files.createDirectory(dir.resolve("bad"));
        DatasetFixtures.duckdbLists(features.resolve("a.parquet"), 0, 10, ROW, false);
        DatasetFixtures.sql("COPY (SELECT CASE WHEN i = 16 THEN [1.0::FLOAT] ELSE [CAST(k AS FLOAT) FOR k IN range("
                + ROW + ")] END AS tensor FROM range(10, 20) t(i) ORDER BY i) TO '" + features.resolve("b.parquet")
                + "' (FORMAT PARQUET)");

        TensorBroadcast broadcast = expand(features, dir.resolve("out")).shipThreshold(0).partitions(2).build();

        assertThatThrownBy(() -> broadcast.run(spark)).isInstanceOf(SourceFormatException.class)
                .hasMessage("Cannot read file:" + features.resolve("b.parquet") + ": row 6 has 1 values; every row"
                        + " needs " + ROW + " (--row-shape)");
        assertThat(dir.resolve("out").resolve(Manifest.SUCCESS_FILE_NAME)).doesNotExist();
    }
}
