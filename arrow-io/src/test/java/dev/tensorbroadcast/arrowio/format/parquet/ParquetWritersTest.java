package dev.tensorbroadcast.arrowio.format.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.arrowio.format.SourceLimits;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.format.npy.NpyReader;
import dev.tensorbroadcast.arrowio.source.DatasetOptions;
import dev.tensorbroadcast.arrowio.source.DatasetSlices;
import dev.tensorbroadcast.arrowio.source.TensorDatasets;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.SourceRows;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Feature tables as pyarrow writes them (fixtures/parquet-pyarrow, made by its make_fixtures.py): every codec and
 * page setting read in slices, values checked against what pyarrow was given; and read by several threads at once,
 * as the tasks of one executor read them.
 */
class ParquetWritersTest {
    private static final Configuration CONF = new Configuration();
    private static final int ROWS = 1200;
    private static final int ELEMENTS = 16;

    private static Path fixtures() throws Exception {
        return Path.of(ParquetWritersTest.class
                        .getResource("/fixtures/parquet-pyarrow/expected.npy")
                        .toURI())
                .getParent();
    }

    private static TensorDataset open(String setting) throws Exception {
        Path directory = fixtures().resolve(setting);
        return TensorDatasets.open(
                FileSystem.getLocal(CONF),
                new org.apache.hadoop.fs.Path(directory.toUri()),
                directory.toString(),
                DatasetOptions.defaults().withColumn("features").withRowShape(Shape.of(ELEMENTS)));
    }

    private static byte[] expected(SourceRows rows) throws Exception {
        byte[] all = new NpyReader(SourceLimits.defaults())
                .read(fixtures().resolve("expected.npy"))
                .values();
        int rowBytes = 4 * ELEMENTS;
        return Arrays.copyOfRange(all, (int) rows.first() * rowBytes, (int) rows.end() * rowBytes);
    }

    @ParameterizedTest
    @ValueSource(strings = {"defaults", "gzip", "zstd", "lz4", "none", "plain", "small-pages", "v2-pages"})
    void everySliceHoldsWhatPyarrowWasGiven(String setting) throws Exception {
        TensorDataset dataset = open(setting);
        assertThat(dataset.shape()).isEqualTo(Shape.of(ROWS, ELEMENTS));
        // the whole table, slices inside one row group, across row groups and across the two files
        for (SourceRows rows : List.of(
                new SourceRows(0, ROWS),
                new SourceRows(10, 20),
                new SourceRows(240, 260),
                new SourceRows(590, 610),
                new SourceRows(1199, 1200))) {
            SourceTensor slice = DatasetSlices.read(dataset, rows, CONF).tensor();
            assertThat(slice.values()).as("%s rows %s", setting, rows).isEqualTo(expected(rows));
        }
    }

    /** Every codec and page layout pyarrow writes gives its first row's length while opening, for the --row-shape. */
    @ParameterizedTest
    @ValueSource(strings = {"defaults", "gzip", "zstd", "lz4", "none", "plain", "small-pages", "v2-pages"})
    void aRowShapeThatDoesNotFitIsRefusedWhenOpened(String setting) throws Exception {
        Path directory = fixtures().resolve(setting);
        assertThatThrownBy(() -> TensorDatasets.open(
                        FileSystem.getLocal(CONF),
                        new org.apache.hadoop.fs.Path(directory.toUri()),
                        directory.toString(),
                        DatasetOptions.defaults().withColumn("features").withRowShape(Shape.of(2, ELEMENTS))))
                .isInstanceOf(SourceFormatException.class)
                .hasMessageStartingWith("Cannot read file:" + directory)
                .hasMessageEndingWith(": row 0 has 16 values; every row needs 32 (rowShape(Shape.parse("
                        + "\"[2,16]\"))); a rowShape of 16 values, such as [16] or [1,16], fits it");
    }

    @Test
    void tasksReadingAtOnceDoNotShareADecompressor() throws Exception {
        List<TensorDataset> datasets = List.of(open("defaults"), open("gzip"), open("v2-pages"));
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> reads = new ArrayList<>();
            for (int thread = 0; thread < 4; thread++) {
                Random random = new Random(thread);
                reads.add(threads.submit(() -> {
                    for (int round = 0; round < 40; round++) {
                        TensorDataset dataset = datasets.get(random.nextInt(datasets.size()));
                        long first = random.nextInt(ROWS);
                        SourceRows rows = new SourceRows(first, first + 1 + random.nextInt((int) (ROWS - first)));
                        assertThat(DatasetSlices.read(dataset, rows, CONF)
                                        .tensor()
                                        .values())
                                .as("%s rows %s", dataset.location(), rows)
                                .isEqualTo(expected(rows));
                    }
                    return null;
                }));
            }
            for (Future<?> read : reads) {
                read.get();
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aTruncatedFileOrAGarbageFooterIsNamedInOneLine(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        byte[] good = java.nio.file.Files.readAllBytes(fixtures().resolve("defaults/part-0.parquet"));
        java.nio.file.Files.createDirectories(dir.resolve("cut"));
        java.nio.file.Files.write(dir.resolve("cut/part-0.parquet"), good);
        Path cut = java.nio.file.Files.write(dir.resolve("cut/part-1.parquet"), Arrays.copyOf(good, good.length / 2));
        assertThatThrownBy(() -> TensorDatasets.open(
                        FileSystem.getLocal(CONF),
                        new org.apache.hadoop.fs.Path(dir.resolve("cut").toUri()),
                        "cut",
                        DatasetOptions.defaults().withColumn("features").withRowShape(Shape.of(ELEMENTS))))
                .isInstanceOf(SourceFormatException.class)
                .hasMessageStartingWith("Cannot read file:" + cut + ": it is not a readable Parquet file: ")
                .hasMessageNotContaining("ParquetTensorReader$")
                .hasMessageNotContaining("\n");
        // PAR1, then a footer length far beyond the file
        byte[] garbage = Arrays.copyOf(good, good.length);
        garbage[good.length - 8] = (byte) 0xff;
        garbage[good.length - 7] = (byte) 0xff;
        garbage[good.length - 6] = (byte) 0xff;
        garbage[good.length - 5] = (byte) 0x7f;
        java.nio.file.Files.write(cut, garbage);
        assertThatThrownBy(() -> TensorDatasets.open(
                        FileSystem.getLocal(CONF),
                        new org.apache.hadoop.fs.Path(dir.resolve("cut").toUri()),
                        "cut",
                        DatasetOptions.defaults().withColumn("features").withRowShape(Shape.of(ELEMENTS))))
                .isInstanceOf(SourceFormatException.class)
                .hasMessageStartingWith("Cannot read file:" + cut + ": it is not a readable Parquet file: ");
    }
}
