package dev.tensorbroadcast.arrowio.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.format.DatasetPart;
import dev.tensorbroadcast.arrowio.format.KeptReader;
import dev.tensorbroadcast.arrowio.format.OtherColumn;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.arrowio.kept.KeptRows;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.SourceRows;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.LongBinaryOperator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hugging Face {@code save_to_disk} directories (fixtures/huggingface, made by its make_fixtures.py with
 * {@code datasets}): the shards in order, the JSON files ignored, {@code Sequence} lists shaped by --row-shape and
 * {@code Array2D}/{@code Array3D} rows shaped by their extension type.
 */
class HuggingFaceDatasetTest {
    private static final Configuration CONF = new Configuration();
    private static final int ROWS = 40;

    private static Path fixture(String name) throws Exception {
        return Path.of(HuggingFaceDatasetTest.class
                        .getResource("/fixtures/huggingface/make_fixtures.py")
                        .toURI())
                .getParent()
                .resolve(name);
    }

    private static TensorDataset open(Path directory, String column, Optional<Shape> rowShape) throws Exception {
        DatasetOptions options = DatasetOptions.defaults().withColumn(column);
        if (rowShape.isPresent()) {
            options = options.withRowShape(rowShape.get());
        }
        return TensorDatasets.open(
                FileSystem.getLocal(CONF),
                new org.apache.hadoop.fs.Path(directory.toUri()),
                directory.toString(),
                options);
    }

    /** Every value of {@code rows}, as make_fixtures.py computed value {@code e} of row {@code r}. */
    private static void assertValues(TensorDataset dataset, SourceRows rows, LongBinaryOperator expected) {
        SourceSlice slice = DatasetSlices.read(dataset, rows, CONF);
        ByteBuffer values = ByteBuffer.wrap(slice.tensor().values()).order(ByteOrder.LITTLE_ENDIAN);
        int elements = (int) dataset.rowShape().elements();
        for (int i = 0; i < rows.count(); i++) {
            for (int e = 0; e < elements; e++) {
                long r = rows.first() + i;
                assertThat(values.getFloat((i * elements + e) * 4))
                        .as("row %s value %s", r, e)
                        .isEqualTo((float) expected.applyAsLong(r, e));
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "two-shards"})
    void anArray2DColumnGivesItsShapeAndItsValues(String layout) throws Exception {
        TensorDataset dataset = open(fixture(layout), "grid", Optional.empty());

        assertThat(dataset.shape()).isEqualTo(Shape.of(ROWS, 2, 4));
        assertThat(dataset.dtype()).isEqualTo(DType.FLOAT32);
        assertThat(dataset.parts())
                .extracting(DatasetPart::name)
                .containsExactlyElementsOf(
                        layout.equals("default")
                                ? List.of("data-00000-of-00001.arrow")
                                : List.of("data-00000-of-00002.arrow", "data-00001-of-00002.arrow"));
        for (SourceRows rows : List.of(new SourceRows(0, ROWS), new SourceRows(15, 25), new SourceRows(39, 40))) {
            assertValues(dataset, rows, (r, e) -> 10 * r + e);
        }
    }

    @Test
    void anArray3DColumnGivesItsShape() throws Exception {
        TensorDataset dataset = open(fixture("two-shards"), "cube", Optional.empty());

        assertThat(dataset.rowShape()).isEqualTo(Shape.of(2, 2, 2));
        assertValues(dataset, new SourceRows(0, ROWS), (r, e) -> -(r + e));
    }

    @Test
    void aSequenceColumnIsShapedByRowShape() throws Exception {
        TensorDataset dataset = open(fixture("two-shards"), "features", Optional.of(Shape.of(1, 8)));

        assertThat(dataset.shape()).isEqualTo(Shape.of(ROWS, 1, 8));
        // make_fixtures.py: r + e / 8, computed here in eighths
        SourceSlice slice = DatasetSlices.read(dataset, new SourceRows(18, 22), CONF);
        ByteBuffer values = ByteBuffer.wrap(slice.tensor().values()).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 4; i++) {
            for (int e = 0; e < 8; e++) {
                assertThat(values.getFloat((i * 8 + e) * 4)).isEqualTo((float) (18 + i + e / 8.0));
            }
        }
        assertThatThrownBy(() -> open(fixture("two-shards"), "features", Optional.empty()))
                .isInstanceOf(SourceFormatException.class)
                .hasMessageContaining("column 'features' is a list of float32 whose length the file does not fix;"
                        + " give the shape of one row with ");
    }

    @Test
    void theOtherColumnsAreKeptRowForRowAcrossShards() throws Exception {
        TensorDataset dataset = open(fixture("two-shards"), "grid", Optional.empty());
        List<KeptColumn> kept = dataset.others().stream()
                .filter(column -> column.kept() != null)
                .map(OtherColumn::kept)
                .toList();

        assertThat(dataset.others())
                .extracting(OtherColumn::name)
                .containsExactly("user_id", "label", "name", "features", "cube");
        assertThat(kept).extracting(KeptColumn::name).containsExactly("user_id", "label", "name");
        try (KeptRows rows = KeptReader.read(dataset, new SourceRows(10, 30), kept, CONF)) {
            for (int i = 0; i < 20; i++) {
                assertThat(rows.vector(0).getObject(i)).isEqualTo(10L + i);
                assertThat(rows.vector(1).getObject(i)).isEqualTo((10 + i) % 3);
                assertThat(rows.vector(2).getObject(i).toString()).isEqualTo("u" + (10 + i));
            }
        }
    }

    @Test
    void aShardTheStateNamesMustBeThere(@TempDir Path directory) throws Exception {
        for (String name : List.of("data-00000-of-00002.arrow", "dataset_info.json", "state.json")) {
            Files.copy(fixture("two-shards").resolve(name), directory.resolve(name));
        }

        assertThatThrownBy(() -> open(directory, "grid", Optional.empty()))
                .isInstanceOf(SourceFormatException.class)
                .hasMessage("Cannot read " + directory + ": its state.json (a Hugging Face save_to_disk directory)"
                        + " names the shard 'data-00001-of-00002.arrow', which is not there");
    }

    @Test
    void anInnerListOfAnotherLengthIsNamedWithItsRow() throws Exception {
        // the grid's rows as [4,2]: 8 values, but inner lists of 4
        TensorDataset dataset = open(fixture("default"), "grid", Optional.of(Shape.of(4, 2)));

        assertThatThrownBy(() -> DatasetSlices.read(dataset, new SourceRows(0, 1), CONF))
                .isInstanceOf(SourceFormatException.class)
                .hasMessageContaining(
                        "row 0 has an inner list of 4 values; its innermost lists are the row's last" + " dim, 2 (");
    }
}
