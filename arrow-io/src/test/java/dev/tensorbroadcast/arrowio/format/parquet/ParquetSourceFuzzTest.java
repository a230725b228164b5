package dev.tensorbroadcast.arrowio.format.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.source.DatasetOptions;
import dev.tensorbroadcast.arrowio.source.DatasetSlices;
import dev.tensorbroadcast.arrowio.source.TensorDatasets;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.SourceRows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * Hostile Parquet sources (footers, page headers, pages): opening the file as a dataset and reading all its rows
 * either works, or is refused with one {@link SourceFormatException} line naming the file. Runs over the committed
 * inputs in {@code ParquetSourceFuzzTestInputs} (pyarrow's pages from fixtures/list-pages, a truncated file, a flipped
 * page header byte, a footer length past the file) in every build; {@code fuzz/run.sh} fuzzes it.
 */
class ParquetSourceFuzzTest {
    private static final Configuration CONF = new Configuration();

    @FuzzTest(maxDuration = "5m")
    void readsOrRefusesCleanly(byte[] file) throws IOException {
        Path directory = Files.createTempDirectory("parquet-fuzz");
        Path path = directory.resolve("fuzz.parquet");
        Files.write(path, file);
        try {
            TensorDataset dataset = TensorDatasets.open(
                    FileSystem.getLocal(CONF),
                    new org.apache.hadoop.fs.Path(directory.toUri()),
                    directory.toString(),
                    DatasetOptions.defaults().withRowShape(Shape.of(50)));
            SourceTensor all = DatasetSlices.read(dataset, new SourceRows(0, dataset.rows()), CONF)
                    .tensor();
            assertThat(all.shape()).isEqualTo(dataset.shape());
        } catch (SourceFormatException e) {
            assertThat(e.getMessage())
                    .startsWith("Cannot read ")
                    .contains("fuzz.parquet")
                    .doesNotContain("\n", "\r");
        } finally {
            Files.deleteIfExists(path);
            Files.deleteIfExists(directory);
        }
    }
}
