package dev.tensorbroadcast.arrowio.format.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.source.DatasetOptions;
import dev.tensorbroadcast.arrowio.source.DatasetSlices;
import dev.tensorbroadcast.arrowio.source.TensorDatasets;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.SourceRows;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The page-by-page Parquet reader on pyarrow's pages (fixtures/list-pages, made by its make_fixtures.py): PLAIN and
 * dictionary values, v1 and v2 pages, rows spanning pages, null elements, 8-byte values; every slice holds what
 * pyarrow was given, nulls where it was given nulls.
 */
class BulkListPagesTest {
    private static final Configuration CONF = new Configuration();
    private static final int ROWS = 300;
    private static final int WIDTH = 50;

    private static Path fixture(String name) throws Exception {
        return Path.of(BulkListPagesTest.class
                .getResource("/fixtures/list-pages/" + name)
                .toURI());
    }

    private static TensorDataset open(String name) throws Exception {
        Path path = fixture(name);
        return TensorDatasets.open(
                FileSystem.getLocal(CONF),
                new org.apache.hadoop.fs.Path(path.toUri()),
                path.toString(),
                DatasetOptions.defaults().withRowShape(Shape.of(WIDTH)));
    }

    private static double expected(String name, long row, int k) {
        double value = 100.0 * row + k;
        return name.contains("dict") ? value % 64 : value;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "plain-v1.parquet",
                "plain-v2.parquet",
                "dict-v1.parquet",
                "dict-v2.parquet",
                "tiny-pages.parquet",
                "nulls-v1.parquet",
                "nulls-v2.parquet",
                "nulls-dict.parquet",
                "doubles.parquet",
                "longs.parquet"
            })
    void everySliceHoldsWhatPyarrowWasGiven(String name) throws Exception {
        TensorDataset dataset = open(name);
        boolean nulls = name.startsWith("nulls");
        int width = name.equals("doubles.parquet") || name.equals("longs.parquet") ? 8 : 4;
        try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(
                new org.apache.hadoop.fs.Path(fixture(name).toUri()), CONF))) {
            // the page-by-page reader, not the column reader, reads these files
            assertThat(BulkListPages.covers(
                            reader.getFooter()
                                    .getFileMetaData()
                                    .getSchema()
                                    .getColumns()
                                    .get(0),
                            reader.getRowGroups().get(0).getColumns().get(0),
                            width))
                    .isTrue();
        }

        for (SourceRows rows : List.of(new SourceRows(0, ROWS), new SourceRows(17, 240), new SourceRows(299, 300))) {
            SourceTensor slice = DatasetSlices.read(dataset, rows, CONF).tensor();
            ByteBuffer values = ByteBuffer.wrap(slice.values()).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < rows.count() * WIDTH; i++) {
                long row = rows.first() + i / WIDTH;
                int k = i % WIDTH;
                boolean isNull = nulls && (7 * row + k) % 13 == 0;
                assertThat(slice.isValid(i))
                        .as("%s row %s value %s valid", name, row, k)
                        .isEqualTo(!isNull);
                if (!isNull) {
                    double value = switch (name) {
                        case "doubles.parquet" -> values.getDouble(8 * i);
                        case "longs.parquet" -> values.getLong(8 * i);
                        default -> values.getFloat(4 * i);
                    };
                    assertThat(value).as("%s row %s value %s", name, row, k).isEqualTo(expected(name, row, k));
                }
            }
        }
    }

    @Test
    void aNullRowIsNamedOnlyWhenItIsWanted() throws Exception {
        TensorDataset dataset = open("null-row.parquet");

        assertThat(DatasetSlices.read(dataset, new SourceRows(0, 211), CONF)
                        .tensor()
                        .shape())
                .isEqualTo(Shape.of(211, WIDTH));
        assertThat(DatasetSlices.read(dataset, new SourceRows(212, 300), CONF)
                        .tensor()
                        .shape())
                .isEqualTo(Shape.of(88, WIDTH));
        assertThatThrownBy(() -> DatasetSlices.read(dataset, new SourceRows(200, 220), CONF))
                .hasMessageEndingWith("null-row.parquet: row 211 is null; every row needs values");
    }

    @Test
    void brotliPagesAreRefusedWhilePlanning() {
        assertThatThrownBy(() -> open("brotli.parquet"))
                .isInstanceOf(SourceFormatException.class)
                .hasMessageEndingWith("brotli.parquet: column 'x.list.element' is compressed with BROTLI, which this"
                        + " tool cannot decompress; it reads uncompressed, SNAPPY, GZIP, ZSTD, LZ4 and LZ4_RAW pages:"
                        + " rewrite the file with one of those (pyarrow's default is snappy)");
    }

    @Test
    void runsOfLevelsAndBitPackedGroupsDecode() {
        // an RLE run of 5 sevens (header 5 << 1), then one bit-packed group of 8 three-bit values (header 1 << 1 | 1)
        ByteBuffer encoded =
                ByteBuffer.wrap(new byte[] {10, 7, 3, (byte) 0b10001000, (byte) 0b11000110, (byte) 0b11111010});
        int[] out = new int[13];

        HybridLevels.decode(encoded, 3, out, 13);

        assertThat(out).containsExactly(7, 7, 7, 7, 7, 0, 1, 2, 3, 4, 5, 6, 7);
        assertThat(encoded.remaining()).isZero();
    }
}
