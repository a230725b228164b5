package dev.tensorbroadcast.job.pipeline;

import static dev.tensorbroadcast.arrowio.source.DatasetFixtures.value;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.arrowio.source.DatasetFixtures;
import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.SourceRead;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.Shape;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * A feature table of 40 rows of [1,256] float32 in three files as other tools write them (Arrow IPC from Arrow Java,
 * Parquet from DuckDB, Parquet from Spark's own writer), expanded per row to [40,3,256] in 4 partitions of 10 rows:
 * what the batch expansion tests in local mode and on a cluster share.
 */
final class FeatureTable {
    static final int ROWS = 40;
    static final int ROW = 256;
    static final int COPIES = 3;
    static final int PARTITIONS = 4;
    /** What reading a file costs besides its batches: footer, schema, and the file system's 4 KiB buffer refills. */
    static final long OVERHEAD = 12 << 10;

    private FeatureTable() {}

    /** Rows 0..9 Arrow IPC (two batches) in a.arrow, 10..24 DuckDB Parquet in b.parquet, 25..39 c-spark.parquet. */
    static Path write(Path features, SparkSession spark) throws Exception {
        Files.createDirectory(features);
        DatasetFixtures.arrowLists(features.resolve("a.arrow"), "tensor", 0, ROW, false, 5, 5);
        DatasetFixtures.duckdbLists(features.resolve("b.parquet"), 10, 25, ROW, false);
        List<Row> rows = new ArrayList<>();
        for (long r = 25; r < ROWS; r++) {
            float[] values = new float[ROW];
            for (int k = 0; k < ROW; k++) {
                values[k] = value(r, k);
            }
            rows.add(RowFactory.create((Object) values));
        }
        StructType schema = new StructType().add("tensor", DataTypes.createArrayType(DataTypes.FloatType, false));
        Path written = features.resolveSibling(features.getFileName() + "-spark-written");
        spark.createDataFrame(rows, schema).coalesce(1).write().parquet(written.toString());
        try (Stream<Path> files = Files.list(written)) {
            Path part = files.filter(file -> file.getFileName().toString().endsWith(".parquet"))
                    .findFirst()
                    .orElseThrow();
            Files.move(part, features.resolve("c-spark.parquet"));
        }
        Files.writeString(features.resolve("_SUCCESS"), "");
        return features;
    }

    /** The expansion, the batch dim kept with -1 under PyTorch's rules. */
    static TensorBroadcast.Builder expand(String features, String output) {
        return TensorBroadcast.builder()
                .source(features)
                .rowShape(Shape.of(1, ROW))
                .dialect(Dialect.PYTORCH)
                .shape(-1, COPIES, ROW)
                .partitions(PARTITIONS)
                .output(output);
    }

    /** The written dataset holds every source row repeated COPIES times, in row order. */
    static void assertExpanded(Path output, Manifest manifest) throws Exception {
        assertThat(manifest.shape()).containsExactly((long) ROWS, (long) COPIES, (long) ROW);
        List<DatasetFiles.ArrowRow> rows = DatasetFiles.arrowRows(output, manifest);
        assertThat(rows)
                .extracting(DatasetFiles.ArrowRow::index)
                .containsExactlyElementsOf(LongStream.range(0, ROWS).boxed().toList());
        for (DatasetFiles.ArrowRow row : rows) {
            List<Object> expected = new ArrayList<>();
            for (int j = 0; j < COPIES * ROW; j++) {
                expected.add(value(row.index(), j % ROW));
            }
            assertThat(row.values()).as("row %d", row.index()).isEqualTo(expected);
        }
    }

    /**
     * Each of the 4 tasks read the rows of its partition and the files holding them, never the others: rows 0..9 are
     * in a.arrow only, 10..19 in b.parquet only, 20..29 in b.parquet and c-spark.parquet, 30..39 in c-spark.parquet.
     */
    static void assertEachTaskReadItsSlice(List<SourceRead> reads, long a, long b, long c) {
        assertThat(b).isGreaterThan(OVERHEAD);
        assertThat(c).isGreaterThan(OVERHEAD);
        assertThat(reads).extracting(SourceRead::firstRow).containsExactly(0L, 10L, 20L, 30L);
        assertThat(reads).extracting(SourceRead::rows).containsExactly(10L, 10L, 10L, 10L);
        assertThat(reads.get(0).bytesRead()).isBetween(a / 2, a + OVERHEAD);
        assertThat(reads.get(1).bytesRead()).isBetween(b / 2, b + OVERHEAD);
        assertThat(reads.get(2).bytesRead()).isBetween((b + c) / 2, b + c + 2 * OVERHEAD);
        assertThat(reads.get(3).bytesRead()).isBetween(c / 2, c + OVERHEAD);
    }
}
