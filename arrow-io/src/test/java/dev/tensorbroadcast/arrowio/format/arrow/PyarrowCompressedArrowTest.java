package dev.tensorbroadcast.arrowio.format.arrow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.SourceLimits;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.format.npy.NpyReader;
import dev.tensorbroadcast.arrowio.source.DatasetOptions;
import dev.tensorbroadcast.arrowio.source.DatasetSlices;
import dev.tensorbroadcast.arrowio.source.TensorDatasets;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.SourceRows;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Arrow IPC files pyarrow wrote with LZ4 and ZSTD bodies (fixtures/arrow-pyarrow, made by its make_fixtures.py):
 * read whole as a source, and as a dataset read in slices across its record batches.
 */
class PyarrowCompressedArrowTest {
    private static final Configuration CONF = new Configuration();
    private static final int ROW_BYTES = 4 * 8 * 4;

    @TempDir
    Path dir;

    private static Path fixtures() throws Exception {
        return Path.of(PyarrowCompressedArrowTest.class
                        .getResource("/fixtures/arrow-pyarrow/expected.npy")
                        .toURI())
                .getParent();
    }

    private static byte[] expected(SourceRows rows) throws Exception {
        byte[] all = new NpyReader(SourceLimits.defaults())
                .read(fixtures().resolve("expected.npy"))
                .values();
        return Arrays.copyOfRange(all, (int) rows.first() * ROW_BYTES, (int) rows.end() * ROW_BYTES);
    }

    @ParameterizedTest
    @ValueSource(strings = {"lz4", "zstd"})
    void readsTheFileWholeAndInSlices(String codec) throws Exception {
        Path file = fixtures().resolve(codec + ".arrow");
        SourceTensor whole;
        try (InputStream in = Files.newInputStream(file)) {
            whole = new ArrowSourceReader(SourceLimits.defaults())
                    .read(file.toString(), in, Files.size(file), ArrowSourceOptions.defaults());
        }
        assertThat(whole.shape()).isEqualTo(Shape.of(60, 4, 8));
        assertThat(whole.values()).isEqualTo(expected(new SourceRows(0, 60)));

        Path dataset = Files.createDirectories(dir.resolve(codec));
        Files.copy(file, dataset.resolve("part-0.arrow"));
        TensorDataset opened = TensorDatasets.open(
                FileSystem.getLocal(CONF),
                new org.apache.hadoop.fs.Path(dataset.toUri()),
                dataset.toString(),
                DatasetOptions.defaults());
        for (SourceRows rows :
                List.of(new SourceRows(0, 60), new SourceRows(5, 15), new SourceRows(18, 43), new SourceRows(59, 60))) {
            assertThat(DatasetSlices.read(opened, rows, CONF).tensor().values())
                    .as("%s rows %s", codec, rows)
                    .isEqualTo(expected(rows));
        }
    }
}
