package dev.tensorbroadcast.arrowio.source;

import static dev.tensorbroadcast.arrowio.source.DatasetFixtures.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.DatasetChunk;
import dev.tensorbroadcast.arrowio.format.DatasetPart;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.SourceRows;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Directories of files from several writers opened as one tensor, and read in slices. */
class TensorDatasetsTest {
    private static final Configuration CONF = new Configuration();

    @TempDir
    Path dir;

    private static TensorDataset open(Path directory, DatasetOptions options) throws IOException {
        FileSystem local = FileSystem.getLocal(CONF);
        return TensorDatasets.open(
                local, new org.apache.hadoop.fs.Path(directory.toUri()), directory.toString(), options);
    }

    private static DatasetOptions rowShape(String shape) {
        return DatasetOptions.defaults().withRowShape(Shape.parse(shape));
    }

    private static void assertRows(SourceTensor tensor, long firstRow, long rows, long rowElements) {
        assertThat(tensor.dtype()).isEqualTo(DType.FLOAT32);
        assertThat(tensor.shape().dim(0)).isEqualTo(rows);
        ByteBuffer values = ByteBuffer.wrap(tensor.values()).order(ByteOrder.LITTLE_ENDIAN);
        for (long r = 0; r < rows; r++) {
            for (long k = 0; k < rowElements; k++) {
                assertThat(values.getFloat((int) ((r * rowElements + k) * 4)))
                        .as("row %d element %d", firstRow + r, k)
                        .isEqualTo(value(firstRow + r, k));
            }
        }
    }

    @Test
    void listsFromArrowAndDuckdbInFileNameOrder() throws Exception {
        DatasetFixtures.arrowLists(dir.resolve("a.arrow"), "tensor", 0, 4, false, 5, 5);
        DatasetFixtures.duckdbLists(dir.resolve("b.parquet"), 10, 25, 4, false);
        DatasetFixtures.arrowLists(dir.resolve("c.arrow"), "tensor", 25, 4, false, 3, 0, 4);
        Files.writeString(dir.resolve("_SUCCESS"), "");

        TensorDataset dataset = open(dir, rowShape("[1,4]"));

        assertThat(dataset.shape()).isEqualTo(Shape.of(32, 1, 4));
        assertThat(dataset.indexed()).isFalse();
        assertThat(dataset.parts()).extracting(DatasetPart::name).containsExactly("a.arrow", "b.parquet", "c.arrow");
        assertThat(dataset.parts()).extracting(DatasetPart::firstRow).containsExactly(0L, 10L, 25L);
        assertThat(dataset.parts().get(2).chunks())
                .extracting(DatasetChunk::rows)
                .containsExactly(3L, 0L, 4L);
        assertRows(DatasetSlices.read(dataset, new SourceRows(0, 32), CONF).tensor(), 0, 32, 4);
        assertRows(DatasetSlices.read(dataset, new SourceRows(7, 27), CONF).tensor(), 7, 20, 4);
    }

    @Test
    void aSliceReadsOnlyTheBatchesHoldingIt() throws Exception {
        DatasetFixtures.arrowLists(dir.resolve("a.arrow"), "tensor", 0, 64, false, 100, 100, 100);
        DatasetFixtures.duckdbLists(dir.resolve("b.parquet"), 300, 600, 64, false);
        TensorDataset dataset = open(dir, rowShape("[64]"));
        DatasetPart arrow = dataset.parts().get(0);

        SourceSlice middle = DatasetSlices.read(dataset, new SourceRows(120, 180), CONF);

        assertRows(middle.tensor(), 120, 60, 64);
        long batch = arrow.chunks().get(1).bytes();
        assertThat(dataset.bytesToRead(new SourceRows(120, 180))).isEqualTo(batch);
        // the footer and the one batch: well under the file, which holds three
        assertThat(middle.bytesRead())
                .isBetween(batch, batch + (arrow.fileBytes() - 3 * batch) + 64 * 1024)
                .isLessThan(arrow.fileBytes());
        SourceSlice parquet = DatasetSlices.read(dataset, new SourceRows(400, 410), CONF);
        assertRows(parquet.tensor(), 400, 10, 64);
        // DuckDB wrote one row group: it is read whole, with the footer read twice (open, then read)
        assertThat(parquet.bytesRead())
                .isBetween(
                        dataset.bytesToRead(new SourceRows(400, 410)),
                        dataset.parts().get(1).fileBytes() + 16 * 1024);
    }

    @Test
    void anIndexOrdersTheFilesWhateverTheirNames() throws Exception {
        DatasetFixtures.ourArrow(dir.resolve("z-first.arrow"), 0, 10, Shape.of(2, 2));
        DatasetFixtures.ourArrow(dir.resolve("m-second.arrow"), 10, 7, Shape.of(2, 2));
        DatasetFixtures.duckdbLists(dir.resolve("a-third.parquet"), 17, 30, 4, true);

        TensorDataset dataset = open(dir, rowShape("[2,2]"));

        assertThat(dataset.indexed()).isTrue();
        assertThat(dataset.parts())
                .extracting(DatasetPart::name)
                .containsExactly("z-first.arrow", "m-second.arrow", "a-third.parquet");
        assertRows(DatasetSlices.read(dataset, new SourceRows(5, 25), CONF).tensor(), 5, 20, 4);
    }

    @Test
    void ourTensorFilesNeedNoRowShape() throws Exception {
        DatasetFixtures.ourArrow(dir.resolve("part-00000.arrow"), 0, 4, Shape.of(3));
        DatasetFixtures.ourArrow(dir.resolve("part-00001.arrow"), 4, 4, Shape.of(3));

        TensorDataset dataset = open(dir, DatasetOptions.defaults());

        assertThat(dataset.shape()).isEqualTo(Shape.of(8, 3));
        assertRows(DatasetSlices.read(dataset, new SourceRows(3, 5), CONF).tensor(), 3, 2, 3);
    }

    @Test
    void aRowOfTheWrongLengthIsNamedWithItsFile() throws Exception {
        DatasetFixtures.duckdbLists(dir.resolve("a.parquet"), 0, 10, 4, false);
        DatasetFixtures.sql("COPY (SELECT CASE WHEN i = 13 THEN [1.0::FLOAT, 2.0, 3.0] ELSE [1.0::FLOAT, 2, 3, 4] END"
                + " AS tensor FROM range(10, 20) t(i) ORDER BY i) TO '" + dir.resolve("b.parquet")
                + "' (FORMAT PARQUET)");
        TensorDataset dataset = open(dir, rowShape("[4]"));

        assertThatThrownBy(() -> DatasetSlices.read(dataset, new SourceRows(0, 20), CONF))
                .isInstanceOf(SourceFormatException.class)
                .hasMessage("Cannot read " + dataset.parts().get(1).path() + ": row 3 has 3 values; every row needs 4"
                        + " (rowShape)");
        // a slice that avoids the bad rows reads fine
        assertThat(DatasetSlices.read(dataset, new SourceRows(8, 13), CONF)
                        .tensor()
                        .shape())
                .isEqualTo(Shape.of(5, 4));
    }

    /** The common mistake, a --row-shape that fits no row, is said while opening, from each file's first row. */
    @Test
    void aRowShapeThatDoesNotFitTheFirstRowIsRefusedWhenOpened() throws Exception {
        List<Path> files = List.of(
                DatasetFixtures.duckdbLists(
                        Files.createDirectory(dir.resolve("duckdb")).resolve("a.parquet"), 0, 10, 32, false),
                DatasetFixtures.parquetJavaLists(
                        Files.createDirectory(dir.resolve("v1")).resolve("a.parquet"), 0, 10, 32, false),
                DatasetFixtures.parquetJavaLists(
                        Files.createDirectory(dir.resolve("v2")).resolve("a.parquet"), 0, 10, 32, true),
                DatasetFixtures.arrowLists(
                        Files.createDirectory(dir.resolve("arrow")).resolve("a.arrow"),
                        "tensor",
                        0,
                        32,
                        false,
                        0,
                        5,
                        5),
                DatasetFixtures.arrowLists(
                        Files.createDirectory(dir.resolve("zstd")).resolve("a.arrow"),
                        "tensor",
                        0,
                        32,
                        true,
                        CompressionUtil.CodecType.ZSTD,
                        5,
                        5),
                DatasetFixtures.arrowLists(
                        Files.createDirectory(dir.resolve("lz4")).resolve("a.arrow"),
                        "tensor",
                        0,
                        32,
                        false,
                        CompressionUtil.CodecType.LZ4_FRAME,
                        5,
                        5));
        for (Path file : files) {
            Path directory = file.getParent();
            assertThatThrownBy(() -> open(directory, rowShape("[4,32]")))
                    .as("%s", directory.getFileName())
                    .isInstanceOf(SourceFormatException.class)
                    .hasMessage("Cannot read file:" + file + ": row 0 has 32 values; every row needs 128 (rowShape("
                            + "Shape.parse(\"[4,32]\"))); a rowShape of 32 values, such as [32] or [1,32], fits it");
            assertThat(open(directory, rowShape("[1,32]")).shape())
                    .as("%s", directory.getFileName())
                    .isEqualTo(Shape.of(10, 1, 32));
        }
    }

    /** Each file's first row is checked, not only the first file's. */
    @Test
    void theFirstRowOfEveryFileIsChecked() throws Exception {
        DatasetFixtures.duckdbLists(dir.resolve("a.parquet"), 0, 10, 4, false);
        DatasetFixtures.arrowLists(dir.resolve("b.arrow"), "tensor", 10, 5, false, 2);

        assertThatThrownBy(() -> open(dir, rowShape("[4]")))
                .hasMessage("Cannot read file:" + dir.resolve("b.arrow") + ": row 0 has 5 values; every row needs 4"
                        + " (rowShape(Shape.parse(\"[4]\"))); a rowShape of 5 values, such as [5] or [1,5], fits it");
    }

    @Test
    void badDirectoriesAreRefusedInOneLine() throws Exception {
        Path empty = Files.createDirectory(dir.resolve("empty"));
        Files.writeString(empty.resolve("_SUCCESS"), "");
        assertThatThrownBy(() -> open(empty, DatasetOptions.defaults()))
                .hasMessage("Cannot read " + empty + ": the directory holds no Arrow IPC or Parquet files");

        Path mixed = Files.createDirectory(dir.resolve("mixed"));
        DatasetFixtures.duckdbLists(mixed.resolve("a.parquet"), 0, 3, 4, false);
        DatasetFixtures.sql("COPY (SELECT [1.0::DOUBLE, 2, 3, 4] AS tensor) TO '" + mixed.resolve("b.parquet")
                + "' (FORMAT PARQUET)");
        assertThatThrownBy(() -> open(mixed, rowShape("[4]")))
                .hasMessage("Cannot read " + mixed + ": file b.parquet has column 'tensor' of float64 lists without"
                        + " an index, but a.parquet has 'tensor' of float32 lists without an index; every file of a"
                        + " dataset needs the same column");

        Path lists = Files.createDirectory(dir.resolve("lists"));
        Path file = DatasetFixtures.duckdbLists(lists.resolve("a.parquet"), 0, 3, 4, false);
        assertThatThrownBy(() -> open(lists, DatasetOptions.defaults()))
                .hasMessage("Cannot read file:" + file + ": column 'tensor' is a list of float32 whose length the"
                        + " file does not fix; give the shape of one row with rowShape (such as [1,64])");

        Path text = Files.createDirectory(dir.resolve("text"));
        Files.writeString(text.resolve("notes.txt"), "hello");
        assertThatThrownBy(() -> open(text, DatasetOptions.defaults()))
                .hasMessage("Cannot read file:" + text.resolve("notes.txt") + ": it is neither an Arrow IPC file or"
                        + " stream nor a Parquet file (a dataset directory holds only those)");
    }

    @Test
    void anIndexThatDoesNotNumberTheRowsFromZeroIsRefusedSayingWhereItMustStart() throws Exception {
        DatasetFixtures.duckdbLists(dir.resolve("a.parquet"), 5, 10, 4, true);
        assertThatThrownBy(() -> open(dir, rowShape("[4]")))
                .isInstanceOf(SourceFormatException.class)
                .hasMessage("Cannot read " + dir + ": file a.parquet starts at index 5 but it is the first file, so it"
                        + " must start at 0; a column named 'index' must number the rows 0..N-1, consecutive within"
                        + " each file (rename the column if it is an id of your own)");
        DatasetFixtures.duckdbLists(dir.resolve("a.parquet"), 0, 5, 4, true);
        DatasetFixtures.duckdbLists(dir.resolve("b.parquet"), 7, 9, 4, true);
        assertThatThrownBy(() -> open(dir, rowShape("[4]")))
                .hasMessageContaining("file b.parquet starts at index 7 but the files before it hold rows 0..4, so it"
                        + " must start at 5");
    }

    @Test
    void theParentOfSeveralDatasetsIsRefusedNamingThemInOrder() throws Exception {
        Path parent = Files.createDirectory(dir.resolve("pair"));
        for (String name : new String[] {"10", "2", "1", "0", "_temporary", ".hidden", "notes"}) {
            Files.createDirectory(parent.resolve(name));
        }
        Files.writeString(parent.resolve("datasets.json"), "{}");
        assertThatThrownBy(() -> open(parent, DatasetOptions.defaults()))
                .hasMessage("Cannot read " + parent + ": it holds one dataset per input (datasets.json names them: 0,"
                        + " 1, 2, 10), not one dataset; give one of them, such as " + parent + "/0");

        // without the index, subdirectories are not read and say nothing
        Files.delete(parent.resolve("datasets.json"));
        assertThatThrownBy(() -> open(parent, DatasetOptions.defaults()))
                .hasMessage("Cannot read " + parent + ": the directory holds no Arrow IPC or Parquet files");
    }
}
