package dev.tensorbroadcast.arrowio.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.SourceRows;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Rows of [4,16] as pyarrow stores a row of several dims (fixtures/nested-rows, made by its make_fixtures.py): nested
 * fixed-size lists give their own row shape, lists of lists take it from --row-shape and have every inner list
 * checked; read whole and in slices, values as pyarrow was given them.
 */
class NestedRowsTest {
    private static final Configuration CONF = new Configuration();

    private static TensorDataset open(String file, Optional<Shape> rowShape) throws Exception {
        Path path = Path.of(NestedRowsTest.class
                .getResource("/fixtures/nested-rows/" + file)
                .toURI());
        DatasetOptions options = DatasetOptions.defaults().withColumn("x");
        return TensorDatasets.open(
                FileSystem.getLocal(CONF),
                new org.apache.hadoop.fs.Path(path.toUri()),
                path.toString(),
                rowShape.map(options::withRowShape).orElse(options));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "fsl.parquet, ''",
        "fsl.arrow, ''",
        "tensor.parquet, ''",
        "listlist.parquet, '4,16'",
        "listlist.parquet, '1,4,16'"
    })
    void everyRowHoldsWhatPyarrowWasGiven(String file, String rowShape) throws Exception {
        TensorDataset dataset = open(file, rowShape.isEmpty() ? Optional.empty() : Optional.of(Shape.parse(rowShape)));

        assertThat(dataset.rowShape()).isEqualTo(rowShape.isEmpty() ? Shape.of(4, 16) : Shape.parse(rowShape));
        for (SourceRows rows : new SourceRows[] {new SourceRows(0, 10), new SourceRows(3, 7), new SourceRows(9, 10)}) {
            SourceTensor slice = DatasetSlices.read(dataset, rows, CONF).tensor();
            ByteBuffer values = ByteBuffer.wrap(slice.values()).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < rows.count() * 64; i++) {
                assertThat(values.getFloat(4 * i))
                        .as("%s rows %s value %s", file, rows, i)
                        .isEqualTo((float) (rows.first() * 64 + i));
            }
        }
    }

    @Test
    void aListOfListsNeedsTheRowShape() throws Exception {
        assertThatThrownBy(() -> open("listlist.parquet", Optional.empty()))
                .hasMessageEndingWith("column 'x' is a list of float32 whose length the file does not fix; give the"
                        + " shape of one row with rowShape (such as [1,64])");
    }

    @Test
    void innerListsOfTheWrongLengthAreNamedByRow() throws Exception {
        TensorDataset dataset = open("bad-inner.parquet", Optional.of(Shape.of(4, 16)));

        assertThat(DatasetSlices.read(dataset, new SourceRows(0, 3), CONF)
                        .tensor()
                        .shape())
                .isEqualTo(Shape.of(3, 4, 16));
        assertThatThrownBy(() -> DatasetSlices.read(dataset, new SourceRows(2, 5), CONF))
                .isInstanceOf(SourceFormatException.class)
                .hasMessageEndingWith("bad-inner.parquet: row 3 has an inner list of 15 values; its innermost lists"
                        + " are the row's last dim, 16 (rowShape)");
        TensorDataset flat = open("listlist.parquet", Optional.of(Shape.of(64)));
        assertThatThrownBy(() -> DatasetSlices.read(flat, new SourceRows(0, 1), CONF))
                .hasMessageEndingWith("row 0 has an inner list of 16 values; its innermost lists are the row's last"
                        + " dim, 64 (rowShape)");
    }

    @Test
    void aNullInnerListIsRefusedWithItsRow() throws Exception {
        TensorDataset parquet = open("null-inner.parquet", Optional.of(Shape.of(4, 16)));
        TensorDataset arrow = open("null-inner.arrow", Optional.empty());

        assertThatThrownBy(() -> DatasetSlices.read(parquet, new SourceRows(0, 10), CONF))
                .hasMessageEndingWith("null-inner.parquet: row 5 has a null or empty inner list; every row needs all"
                        + " its values");
        assertThatThrownBy(() -> DatasetSlices.read(arrow, new SourceRows(4, 8), CONF))
                .hasMessageEndingWith(
                        "null-inner.arrow: row 6 has a null inner list; every row needs all its" + " values");
        assertThat(DatasetSlices.read(arrow, new SourceRows(0, 6), CONF)
                        .tensor()
                        .shape())
                .isEqualTo(Shape.of(6, 4, 16));
    }
}
