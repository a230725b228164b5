package dev.tensorbroadcast.arrowio.format.arrow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.arrowio.format.KeptReader;
import dev.tensorbroadcast.arrowio.format.OtherColumn;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.arrowio.kept.KeptRows;
import dev.tensorbroadcast.arrowio.source.DatasetOptions;
import dev.tensorbroadcast.arrowio.source.DatasetSlices;
import dev.tensorbroadcast.arrowio.source.TensorDatasets;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.SourceRows;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Arrow IPC as polars writes it by default (fixtures/polars, made by its make_fixtures.py): lists as
 * {@code large_list} (nested too), strings as {@code Utf8View}, binaries as {@code BinaryView}, categoricals as
 * dictionary-encoded string views; as a file ({@code write_ipc}) and as a stream ({@code write_ipc_stream}). And
 * pyarrow's list views.
 */
class PolarsArrowTest {
    private static final Configuration CONF = new Configuration();
    private static final int ROWS = 30;

    @TempDir
    Path dir;

    private TensorDataset open(String file, String column, Shape rowShape) throws Exception {
        Path source = Path.of(
                PolarsArrowTest.class.getResource("/fixtures/polars/" + file).toURI());
        Files.copy(source, dir.resolve(file));
        return TensorDatasets.open(
                FileSystem.getLocal(CONF),
                new org.apache.hadoop.fs.Path(dir.toUri()),
                dir.toString(),
                DatasetOptions.defaults().withColumn(column).withRowShape(rowShape));
    }

    private static ByteBuffer values(TensorDataset dataset, SourceRows rows) {
        return ByteBuffer.wrap(DatasetSlices.read(dataset, rows, CONF).tensor().values())
                .order(ByteOrder.LITTLE_ENDIAN);
    }

    @ParameterizedTest
    @ValueSource(strings = {"table.arrow", "table-stream.arrow"})
    void aLargeListColumnIsReadWithRowShape(String file) throws Exception {
        TensorDataset dataset = open(file, "features", Shape.of(1, 8));

        assertThat(dataset.shape()).isEqualTo(Shape.of(ROWS, 1, 8));
        ByteBuffer values = values(dataset, new SourceRows(5, 30));
        for (int i = 0; i < 25; i++) {
            for (int e = 0; e < 8; e++) {
                assertThat(values.getFloat((i * 8 + e) * 4)).isEqualTo((float) (5 + i + e / 8.0));
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"table.arrow", "table-stream.arrow"})
    void aNestedLargeListIsReadAsRowsOfItsShape(String file) throws Exception {
        TensorDataset dataset = open(file, "grid", Shape.of(2, 4));

        ByteBuffer values = values(dataset, new SourceRows(0, ROWS));
        for (int r = 0; r < ROWS; r++) {
            for (int e = 0; e < 8; e++) {
                assertThat(values.getFloat((r * 8 + e) * 4)).isEqualTo((float) (10 * r + e));
            }
        }
    }

    /** pyarrow's list views (fixtures/arrow-pyarrow/make_list_views.py), their rows stored in reverse order. */
    @ParameterizedTest
    @ValueSource(strings = {"view", "large_view"})
    void listViewsAreReadRowByRowWhereverTheirValuesLie(String column) throws Exception {
        Path source = Path.of(PolarsArrowTest.class
                .getResource("/fixtures/arrow-pyarrow/list-views.arrow")
                .toURI());
        Files.copy(source, dir.resolve("list-views.arrow"));
        TensorDataset dataset = TensorDatasets.open(
                FileSystem.getLocal(CONF),
                new org.apache.hadoop.fs.Path(dir.toUri()),
                dir.toString(),
                DatasetOptions.defaults().withColumn(column).withRowShape(Shape.of(2, 2)));

        ByteBuffer values = values(dataset, new SourceRows(3, 12));
        for (int i = 0; i < 9; i++) {
            for (int e = 0; e < 4; e++) {
                assertThat(values.getFloat((i * 4 + e) * 4)).as("row %s", 3 + i).isEqualTo((float) (10 * (3 + i) + e));
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"table.arrow", "table-stream.arrow"})
    void viewsAndCategoricalsAreKeptDecoded(String file) throws Exception {
        TensorDataset dataset = open(file, "features", Shape.of(8));
        List<KeptColumn> kept = dataset.others().stream()
                .filter(column -> column.kept() != null)
                .map(OtherColumn::kept)
                .toList();

        assertThat(kept).extracting(KeptColumn::name).containsExactly("user_id", "name", "blob", "kind");
        assertThat(kept).extracting(KeptColumn::typeName).containsExactly("int64", "string", "binary", "string");
        try (KeptRows rows = KeptReader.read(dataset, new SourceRows(3, 30), kept, CONF)) {
            for (int i = 0; i < 27; i++) {
                int r = 3 + i;
                assertThat(rows.vector(0).getObject(i)).isEqualTo((long) r);
                assertThat(String.valueOf(rows.vector(1).getObject(i))).isEqualTo(r % 7 == 0 ? "null" : "u" + r);
                assertThat((byte[]) rows.vector(2).getObject(i)).containsExactly(r, r + 1);
                assertThat(rows.vector(3).getObject(i).toString()).isEqualTo("k" + r % 4);
            }
        }
    }
}
