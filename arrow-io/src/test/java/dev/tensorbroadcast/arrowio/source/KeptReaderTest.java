package dev.tensorbroadcast.arrowio.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.arrowio.format.KeptReader;
import dev.tensorbroadcast.arrowio.format.OtherColumn;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.arrowio.kept.KeptRows;
import dev.tensorbroadcast.planner.SourceRows;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A pyarrow feature table's other columns, found in the footers and read in slices from Parquet and Arrow IPC. */
class KeptReaderTest {
    private static final Configuration CONF = new Configuration();

    @ParameterizedTest
    @ValueSource(strings = {"parquet", "arrow", "stream", "stream-zstd"})
    void theFootersNameEveryOtherColumnAndWhyAListCannotBeKept(String format) throws Exception {
        TensorDataset dataset = KeptFixtures.open(format, CONF);

        assertThat(dataset.others())
                .extracting(OtherColumn::name)
                .containsExactly("user_id", "label", "score", "name", "day", "seen", "flag", "small", "tags");
        assertThat(dataset.others())
                .filteredOn(column -> column.kept() != null)
                .extracting(column -> column.kept().typeName())
                .containsExactly("int64", "int32", "float64", "string", "date32", "timestamp[us, UTC]", "bool", "int8");
        OtherColumn tags = dataset.others().get(8);
        assertThat(tags.kept()).isNull();
        assertThat(tags.whyNot())
                .startsWith("it is ")
                .contains("string")
                .endsWith("a kept column holds " + KeptColumn.ACCEPTED);
    }

    @ParameterizedTest
    @ValueSource(strings = {"parquet", "arrow", "stream", "stream-zstd"})
    void sliceAcrossRowGroupsAndFilesHoldsWhatPyarrowWasGiven(String format) throws Exception {
        TensorDataset dataset = KeptFixtures.open(format, CONF);
        List<KeptColumn> columns = dataset.others().stream()
                .filter(column -> column.kept() != null)
                .map(OtherColumn::kept)
                .toList();

        for (SourceRows rows : List.of(
                new SourceRows(0, 600), new SourceRows(150, 450), new SourceRows(299, 301), new SourceRows(599, 600))) {
            try (KeptRows kept = KeptReader.read(dataset, rows, columns, CONF)) {
                for (int c = 0; c < columns.size(); c++) {
                    String name = columns.get(c).name();
                    for (int i = 0; i < rows.count(); i++) {
                        assertThat(KeptFixtures.actual(kept.vector(c), i))
                                .as("%s %s row %s", format, name, rows.first() + i)
                                .isEqualTo(KeptFixtures.expected(name, rows.first() + i));
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"parquet", "arrow", "stream", "stream-zstd"})
    void aTaskTakesItsRowsOfTheShippedOnes(String format) throws Exception {
        TensorDataset dataset = KeptFixtures.open(format, CONF);
        List<KeptColumn> columns =
                List.of(dataset.others().get(3).kept(), dataset.others().get(5).kept());
        SourceRows rows = new SourceRows(0, 20);

        try (KeptRows read = KeptReader.read(dataset, rows, columns, CONF);
                KeptRows shipped = KeptRows.fromIpc(columns, new SourceRows(5, 20), read.toIpc())) {
            assertThat(shipped.rows()).isEqualTo(new SourceRows(5, 20));
            for (int i = 0; i < 15; i++) {
                assertThat(KeptFixtures.actual(shipped.vector(0), i)).isEqualTo(KeptFixtures.expected("name", 5 + i));
                assertThat(KeptFixtures.actual(shipped.vector(1), i)).isEqualTo(KeptFixtures.expected("seen", 5 + i));
            }
        }
    }
}
