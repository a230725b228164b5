package dev.tensorbroadcast.arrowio.format.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.TensorColumn;
import dev.tensorbroadcast.arrowio.format.StreamOutputFile;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.OutputFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ParquetTensorWriterTest {
    private static final Shape ROW = Shape.of(2, 3);
    private static final int ROWS = 7;
    private static final long FIRST_ROW = 40;

    @TempDir
    Path dir;

    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void closeAllocator() {
        allocator.close();
    }

    /** Element i's expected value as a long (bits for floats), or null where the test made it null. */
    private static Long expected(DType dtype, int i, boolean withNulls) {
        if (withNulls && i % 5 == 3) {
            return null;
        }
        return switch (dtype) {
            case BOOL -> (long) (i % 3 == 0 ? 1 : 0);
            case INT8, INT16, INT32, INT64 -> (long) ((i * 7) % 100 - 50);
            default -> (long) ((i * 7) % 100 + 1);
        };
    }

    private FieldVector values(DType dtype, int count, boolean withNulls) {
        FieldVector vector = switch (dtype) {
            case BOOL -> new BitVector("item", allocator);
            case INT8 -> new TinyIntVector("item", allocator);
            case INT16 -> new SmallIntVector("item", allocator);
            case INT32 -> new IntVector("item", allocator);
            case INT64 -> new BigIntVector("item", allocator);
            case UINT8 -> new UInt1Vector("item", allocator);
            case UINT16, BFLOAT16 -> new UInt2Vector("item", allocator);
            case UINT32 -> new UInt4Vector("item", allocator);
            case UINT64 -> new UInt8Vector("item", allocator);
            case FLOAT16 -> new Float2Vector("item", allocator);
            case FLOAT32, COMPLEX64 -> new Float4Vector("item", allocator);
            case FLOAT64, COMPLEX128 -> new Float8Vector("item", allocator);
            case STRING -> new VarCharVector("item", allocator);
        };
        vector.allocateNew();
        for (int i = 0; i < count; i++) {
            Long value = expected(dtype, i, withNulls);
            if (value == null) {
                vector.setNull(i);
                continue;
            }
            long v = value;
            switch (dtype) {
                case BOOL -> ((BitVector) vector).setSafe(i, (int) v);
                case INT8 -> ((TinyIntVector) vector).setSafe(i, (byte) v);
                case INT16 -> ((SmallIntVector) vector).setSafe(i, (short) v);
                case INT32 -> ((IntVector) vector).setSafe(i, (int) v);
                case INT64 -> ((BigIntVector) vector).setSafe(i, v);
                case UINT8 -> ((UInt1Vector) vector).setSafe(i, (byte) v);
                case UINT16, BFLOAT16 -> ((UInt2Vector) vector).setSafe(i, (char) v);
                case UINT32 -> ((UInt4Vector) vector).setSafe(i, (int) v);
                case UINT64 -> ((UInt8Vector) vector).setSafe(i, v);
                case FLOAT16 -> ((Float2Vector) vector).setSafe(i, (short) v);
                case FLOAT32, COMPLEX64 -> ((Float4Vector) vector).setSafe(i, (float) v);
                case FLOAT64, COMPLEX128 -> ((Float8Vector) vector).setSafe(i, (double) v);
                case STRING -> ((VarCharVector) vector).setSafe(i, ("é" + v).getBytes(StandardCharsets.UTF_8));
            }
        }
        vector.setValueCount(count);
        return vector;
    }

    private Path write(DType dtype, boolean withNulls, ParquetWriteOptions options) throws Exception {
        TensorColumn column = new TensorColumn("tensor", dtype, ROW);
        int perRow = (int) column.storageShape().elements();
        Path file = dir.resolve(dtype + (withNulls ? "-nulls" : "") + ".parquet");
        try (FieldVector values = values(dtype, ROWS * perRow, withNulls);
                BigIntVector index = index(FIRST_ROW, ROWS);
                ParquetTensorWriter writer = ParquetTensorWriter.create(new LocalOutputFile(file), column, options)) {
            writer.write(ROWS, index, values);
            assertThat(writer.rows()).isEqualTo(ROWS);
        }
        return file;
    }

    /** The index column of rows {@code [first, first + count)}, as a batch holds it. */
    private BigIntVector index(long first, int count) {
        BigIntVector index = new BigIntVector("index", allocator);
        index.allocateNew(count);
        for (int r = 0; r < count; r++) {
            index.set(r, first + r);
        }
        index.setValueCount(count);
        return index;
    }

    private static long actual(DType dtype, Group list, int i) {
        Group element = list.getGroup("list", i);
        return switch (dtype) {
            case BOOL -> element.getBoolean("element", 0) ? 1 : 0;
            case INT64, UINT64 -> element.getLong("element", 0);
            case FLOAT16 -> {
                byte[] bytes = element.getBinary("element", 0).getBytes();
                yield (short) ((bytes[0] & 0xFF) | (bytes[1] << 8));
            }
            case FLOAT32, COMPLEX64 -> (long) element.getFloat("element", 0);
            case FLOAT64, COMPLEX128 -> (long) element.getDouble("element", 0);
            case STRING -> Long.parseLong(element.getString("element", 0).substring(1));
            case UINT32 -> element.getInteger("element", 0) & 0xFFFFFFFFL;
            default -> element.getInteger("element", 0);
        };
    }

    @ParameterizedTest
    @EnumSource(DType.class)
    void parquetJavaReadsEveryDtypeBack(DType dtype) throws Exception {
        for (boolean withNulls : new boolean[] {false, true}) {
            Path file = write(dtype, withNulls, ParquetWriteOptions.defaults());
            int perRow =
                    (int) new TensorColumn("tensor", dtype, ROW).storageShape().elements();
            List<Group> rows = readGroups(file);
            assertThat(rows).hasSize(ROWS);
            for (int r = 0; r < ROWS; r++) {
                Group row = rows.get(r);
                assertThat(row.getLong("index", 0)).isEqualTo(FIRST_ROW + r);
                Group list = row.getGroup("tensor", 0);
                assertThat(list.getFieldRepetitionCount("list")).isEqualTo(perRow);
                for (int e = 0; e < perRow; e++) {
                    Long want = expected(dtype, r * perRow + e, withNulls);
                    Group element = list.getGroup("list", e);
                    if (want == null) {
                        assertThat(element.getFieldRepetitionCount("element"))
                                .as("null at %d", e)
                                .isZero();
                    } else {
                        assertThat(actual(dtype, list, e))
                                .as("%s row %d element %d", dtype, r, e)
                                .isEqualTo(want);
                    }
                }
            }
        }
    }

    @Test
    void duckdbReadsFloatsAndStrings() throws Exception {
        Path floats = write(DType.FLOAT32, false, ParquetWriteOptions.defaults().withCodec(CompressionCodecName.ZSTD));
        Path strings = write(DType.STRING, true, ParquetWriteOptions.defaults().withCodec(CompressionCodecName.SNAPPY));
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
                Statement statement = connection.createStatement()) {
            try (ResultSet rows =
                    statement.executeQuery("SELECT index, tensor FROM read_parquet('" + floats + "') ORDER BY index")) {
                int r = 0;
                while (rows.next()) {
                    assertThat(rows.getLong(1)).isEqualTo(FIRST_ROW + r);
                    Object[] values = (Object[]) rows.getArray(2).getArray();
                    assertThat(values).hasSize(6);
                    for (int e = 0; e < 6; e++) {
                        assertThat(((Number) values[e]).floatValue())
                                .isEqualTo((float) expected(DType.FLOAT32, r * 6 + e, false));
                    }
                    r++;
                }
                assertThat(r).isEqualTo(ROWS);
            }
            try (ResultSet rows =
                    statement.executeQuery("SELECT tensor FROM read_parquet('" + strings + "') ORDER BY index")) {
                List<Object> all = new ArrayList<>();
                while (rows.next()) {
                    Array array = rows.getArray(1);
                    all.addAll(java.util.Arrays.asList((Object[]) array.getArray()));
                }
                assertThat(all).hasSize(ROWS * 6);
                for (int i = 0; i < all.size(); i++) {
                    Long want = expected(DType.STRING, i, true);
                    assertThat(all.get(i)).as("element %d", i).isEqualTo(want == null ? null : "é" + want);
                }
            }
        }
    }

    @Test
    void storesTheArrowSchemaAndWritesEmptyFiles() throws Exception {
        TensorColumn column = new TensorColumn("tensor", DType.FLOAT32, ROW);
        Path file = dir.resolve("empty.parquet");
        try (ParquetTensorWriter writer =
                ParquetTensorWriter.create(new LocalOutputFile(file), column, ParquetWriteOptions.defaults())) {
            assertThat(writer.rows()).isZero();
        }
        try (ParquetFileReader reader = ParquetFileReader.open(
                HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.toUri()), new Configuration(false)))) {
            assertThat(reader.getRecordCount()).isZero();
            assertThat(reader.getFooter().getFileMetaData().getKeyValueMetaData())
                    .containsEntry(ParquetTensorSchema.ARROW_SCHEMA_KEY, new ParquetTensorSchema(column).arrowSchema());
            assertThat(reader.getFooter().getFileMetaData().getSchema().toString())
                    .contains("required int64 index", "required group tensor (LIST)", "optional float element");
        }
        assertThat(Files.size(file)).isPositive();
    }

    @Test
    void splitsPagesAtRowBoundaries() throws Exception {
        // 24-byte rows, 50-byte pages: two rows a page, four pages
        Path file = write(DType.FLOAT32, false, new ParquetWriteOptions(CompressionCodecName.UNCOMPRESSED, 50));
        List<Group> rows = readGroups(file);
        assertThat(rows).hasSize(ROWS);
        assertThat(rows.get(ROWS - 1).getLong("index", 0)).isEqualTo(FIRST_ROW + ROWS - 1);
        assertThat(actual(DType.FLOAT32, rows.get(ROWS - 1).getGroup("tensor", 0), 5))
                .isEqualTo(expected(DType.FLOAT32, ROWS * 6 - 1, false));
    }

    @Test
    void writesTheRowNumbersOfTheIndexVectorAcrossPages() throws Exception {
        // 16-byte pages: two indexes a page, read in place from the vector's buffer
        TensorColumn column = new TensorColumn("tensor", DType.INT32, Shape.of(1));
        Path file = dir.resolve("index.parquet");
        long[] numbers = {5, 9, 2, 1L << 40, -3};
        try (BigIntVector index = new BigIntVector("index", allocator);
                FieldVector values = values(DType.INT32, numbers.length, false);
                ParquetTensorWriter writer = ParquetTensorWriter.create(
                        new LocalOutputFile(file),
                        column,
                        new ParquetWriteOptions(CompressionCodecName.UNCOMPRESSED, 16))) {
            index.allocateNew(numbers.length);
            for (int r = 0; r < numbers.length; r++) {
                index.set(r, numbers[r]);
            }
            index.setValueCount(numbers.length);
            writer.write(numbers.length, index, values);
        }
        List<Group> rows = readGroups(file);
        assertThat(rows).extracting(row -> row.getLong("index", 0)).containsExactly(5L, 9L, 2L, 1L << 40, -3L);
        // the footer's statistics and the page index cover the index, for readers that prune by row number
        try (ParquetFileReader reader = ParquetFileReader.open(
                HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.toUri()), new Configuration(false)))) {
            var chunk = reader.getRowGroups().get(0).getColumns().get(0);
            assertThat(chunk.getPath().toDotString()).isEqualTo("index");
            assertThat(chunk.getStatistics().genericGetMin()).isEqualTo(-3L);
            assertThat(chunk.getStatistics().genericGetMax()).isEqualTo(1L << 40);
            assertThat(chunk.getStatistics().getNumNulls()).isZero();
            var pages = reader.readColumnIndex(chunk);
            assertThat(pages).isNotNull();
            assertThat(pages.getMinValues()).hasSize(3);
        }
    }

    @Test
    void refusesMoreRowsThanTheIndexVectorHolds() throws Exception {
        TensorColumn column = new TensorColumn("tensor", DType.INT32, Shape.of(1));
        try (BigIntVector index = index(0, 2);
                FieldVector values = values(DType.INT32, 2, false);
                ParquetTensorWriter writer = ParquetTensorWriter.create(
                        new LocalOutputFile(dir.resolve("short.parquet")), column, ParquetWriteOptions.defaults())) {
            long capacity = index.getDataBuffer().capacity() / 8;
            assertThatThrownBy(() -> writer.write((int) capacity + 1, index, values))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("Cannot write " + (capacity + 1) + " rows: the index vector holds " + capacity);
        }
    }

    @Test
    void nullRunsOfWholeBytesAndPartialBytesReadBack() throws Exception {
        // rows of 5 elements and 3-row pages start pages mid-byte; runs of 0, 1, 9 and 20 bits cover bytes that are
        // all ones, all zeros and mixed, and run ends inside bytes
        Shape row = Shape.of(5);
        int rows = 23;
        int count = rows * 5;
        boolean[] present = new boolean[count];
        int[] runs = {20, 9, 1, 1, 17, 3, 24, 2, 8, 30};
        int at = 0;
        for (int k = 0; at < count; k++) {
            int length = runs[k % runs.length];
            for (int i = 0; i < length && at < count; i++) {
                present[at++] = k % 2 == 0;
            }
        }
        Path file = dir.resolve("runs.parquet");
        try (IntVector values = new IntVector("item", allocator);
                BigIntVector index = index(0, rows);
                ParquetTensorWriter writer = ParquetTensorWriter.create(
                        new LocalOutputFile(file),
                        new TensorColumn("tensor", DType.INT32, row),
                        new ParquetWriteOptions(CompressionCodecName.UNCOMPRESSED, 60))) {
            values.allocateNew(count);
            for (int i = 0; i < count; i++) {
                if (present[i]) {
                    values.set(i, i);
                } else {
                    values.setNull(i);
                }
            }
            values.setValueCount(count);
            writer.write(rows, index, values);
        }
        List<Group> read = readGroups(file);
        assertThat(read).hasSize(rows);
        for (int i = 0; i < count; i++) {
            Group element = read.get(i / 5).getGroup("tensor", 0).getGroup("list", i % 5);
            if (present[i]) {
                assertThat(element.getInteger("element", 0)).as("element %d", i).isEqualTo(i);
            } else {
                assertThat(element.getFieldRepetitionCount("element"))
                        .as("null %d", i)
                        .isZero();
            }
        }
    }

    /** A disk that fails on the first write, and records what was done to it. */
    private static final class FailingDisk extends OutputStream {
        boolean written;
        boolean closed;

        @Override
        public void write(int b) throws IOException {
            written = true;
            throw new IOException("disk full");
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            written = true;
            throw new IOException("disk full");
        }

        @Override
        public void close() {
            closed = true;
        }

        OutputFile file() {
            return StreamOutputFile.over(this, () -> 0, "failing");
        }
    }

    @Test
    void closesTheFileWhenStartingFails() {
        FailingDisk disk = new FailingDisk();
        assertThatThrownBy(() -> ParquetTensorWriter.create(
                        disk.file(), new TensorColumn("tensor", DType.INT32, ROW), ParquetWriteOptions.defaults()))
                .isInstanceOf(IOException.class)
                .hasMessage("disk full");
        assertThat(disk.written).isTrue();
        assertThat(disk.closed).isTrue();
    }

    @Test
    void anUnavailableCodecFailsBeforeTheFileIsCreated() {
        FailingDisk disk = new FailingDisk();
        assertThatThrownBy(() -> ParquetTensorWriter.create(
                        disk.file(),
                        new TensorColumn("tensor", DType.INT32, ROW),
                        ParquetWriteOptions.defaults().withCodec(CompressionCodecName.LZO)))
                .hasMessageContaining("LzoCodec");
        assertThat(disk.written).isFalse();
        assertThat(disk.closed).isFalse();
    }

    @Test
    void sizesBoolPagesByBits() throws Exception {
        // rows of 6 bools are 6 bits: 2-byte pages hold 2 rows, so 7 rows take 4 pages
        Path file = write(DType.BOOL, false, new ParquetWriteOptions(CompressionCodecName.UNCOMPRESSED, 2));
        try (ParquetFileReader reader = ParquetFileReader.open(
                HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.toUri()), new Configuration(false)))) {
            PageReadStore group = reader.readNextRowGroup();
            PageReader pages = group.getPageReader(
                    new ParquetTensorSchema(new TensorColumn("tensor", DType.BOOL, ROW)).valuesDescriptor());
            int count = 0;
            while (pages.readPage() != null) {
                count++;
            }
            assertThat(count).isEqualTo(4);
        }
        assertThat(readGroups(file)).hasSize(ROWS);
    }

    private static List<Group> readGroups(Path file) throws Exception {
        List<Group> rows = new ArrayList<>();
        try (ParquetReader<Group> reader = ParquetReader.builder(
                        new GroupReadSupport(), new org.apache.hadoop.fs.Path(file.toUri()))
                .withConf(new Configuration(false))
                .build()) {
            for (Group group = reader.read(); group != null; group = reader.read()) {
                rows.add(group);
            }
        }
        return rows;
    }
}
