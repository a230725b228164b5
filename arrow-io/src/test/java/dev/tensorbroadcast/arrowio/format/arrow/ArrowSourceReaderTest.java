package dev.tensorbroadcast.arrowio.format.arrow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.TensorColumn;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.arrowio.format.SourceLimits;
import dev.tensorbroadcast.arrowio.source.TensorValues;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.ExtensionTypeVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.ArrowWriter;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Round trips through Arrow Java's own writers, in the layout of {@link TensorColumn}, and hostile inputs. */
class ArrowSourceReaderTest {
    private static final ArrowSourceReader READER = new ArrowSourceReader(SourceLimits.defaults());

    @ParameterizedTest
    @EnumSource(DType.class)
    void roundTripsEveryDtypeInBothFormats(DType dtype) throws IOException {
        Shape rowShape = Shape.of(2, 3);
        Field field = new TensorColumn("tensor", dtype, rowShape).field();
        boolean complex = dtype == DType.COMPLEX64 || dtype == DType.COMPLEX128;
        int perRow = complex ? 12 : 6;
        Random random = new Random(dtype.ordinal());
        int[] batchRows = {3, 0, 2};
        int rows = 5;
        int storedWidth =
                dtype == DType.STRING || dtype == DType.BOOL ? 1 : complex ? dtype.byteWidth() / 2 : dtype.byteWidth();
        byte[] stored = new byte[rows * perRow * storedWidth];
        random.nextBytes(stored);
        boolean[] valid = new boolean[rows * perRow];
        for (int i = 0; i < valid.length; i++) {
            // complex numbers are null only as a whole, so both parts share a validity
            valid[i] = complex ? (i / 2) % 5 != 3 : i % 5 != 3;
        }
        for (boolean file : new boolean[] {true, false}) {
            byte[] bytes = write(field, file, batchRows, dtype, stored, storedWidth, valid, perRow);
            SourceTensor tensor = READER.read(
                    "t.arrow", new ByteArrayInputStream(bytes), bytes.length, ArrowSourceOptions.defaults());
            assertThat(tensor.dtype()).isEqualTo(dtype);
            assertThat(tensor.shape()).isEqualTo(Shape.of(rows, 2, 3));
            List<Object> values = TensorValues.of(tensor);
            int elementWidth = complex ? 2 * storedWidth : storedWidth;
            for (int e = 0; e < rows * 6; e++) {
                int s = complex ? 2 * e : e;
                if (!valid[s]) {
                    assertThat(values.get(e)).as("element %d", e).isNull();
                } else {
                    SourceTensor one = single(dtype, stored, e, elementWidth);
                    assertThat(values.get(e))
                            .as("element %d", e)
                            .isEqualTo(TensorValues.of(one).get(0));
                }
            }
        }
    }

    /** What element {@code e} of the stored bytes means as {@code dtype}, via a one-element tensor. */
    private static SourceTensor single(DType dtype, byte[] stored, int e, int width) {
        if (dtype == DType.STRING) {
            byte[] text = text(stored[e]);
            return SourceTensor.strings(Shape.of(1), new int[] {0, text.length}, text, null);
        }
        if (dtype == DType.BOOL) {
            return SourceTensor.fixedWidth(dtype, Shape.of(1), new byte[] {(byte) (stored[e] & 1)}, null);
        }
        return SourceTensor.fixedWidth(
                dtype, Shape.of(1), Arrays.copyOfRange(stored, e * width, (e + 1) * width), null);
    }

    private static byte[] text(byte b) {
        return ("é" + (b & 0xFF)).repeat(b & 3).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] write(
            Field field,
            boolean file,
            int[] batchRows,
            DType dtype,
            byte[] stored,
            int width,
            boolean[] valid,
            int perRow)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(field)), allocator);
                ArrowWriter writer = file
                        ? new ArrowFileWriter(root, null, Channels.newChannel(out))
                        : new ArrowStreamWriter(root, null, Channels.newChannel(out))) {
            writer.start();
            int first = 0;
            for (int rows : batchRows) {
                FieldVector vector = root.getVector(0);
                FixedSizeListVector list = (FixedSizeListVector)
                        (vector instanceof ExtensionTypeVector<?> ext ? ext.getUnderlyingVector() : vector);
                list.allocateNew();
                FieldVector child = list.getDataVector();
                int n = rows * perRow;
                int from = first * perRow;
                if (child instanceof VarCharVector strings) {
                    strings.allocateNew(n);
                    for (int i = 0; i < n; i++) {
                        if (valid[from + i]) {
                            strings.setSafe(i, text(stored[from + i]));
                        } else {
                            strings.setNull(i);
                        }
                    }
                } else {
                    child.setInitialCapacity(Math.max(n, 1));
                    child.allocateNew();
                    ArrowBuf data = child.getDataBuffer();
                    for (int i = 0; i < n; i++) {
                        if (dtype == DType.BOOL) {
                            BitVectorHelper.setValidityBit(data, i, stored[from + i] & 1);
                        }
                        BitVectorHelper.setValidityBit(child.getValidityBuffer(), i, valid[from + i] ? 1 : 0);
                    }
                    if (dtype != DType.BOOL) {
                        data.setBytes(0, stored, from * width, (long) n * width);
                    }
                }
                child.setValueCount(n);
                for (int r = 0; r < rows; r++) {
                    list.setNotNull(r);
                }
                list.setValueCount(rows);
                root.setRowCount(rows);
                writer.writeBatch();
                first += rows;
            }
            writer.end();
        }
        return out.toByteArray();
    }

    @Test
    void readsCompressedFiles() throws IOException {
        Schema schema = new Schema(List.of(Field.notNullable("tensor", new ArrowType.Int(64, true))));
        for (CompressionUtil.CodecType codec :
                List.of(CompressionUtil.CodecType.LZ4_FRAME, CompressionUtil.CodecType.ZSTD)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (BufferAllocator allocator = new RootAllocator();
                    VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
                    ArrowWriter writer = new ArrowFileWriter(
                            root,
                            null,
                            Channels.newChannel(out),
                            Map.of(),
                            IpcOption.DEFAULT,
                            CommonsCompressionFactory.INSTANCE,
                            codec)) {
                BigIntVector vector = (BigIntVector) root.getVector(0);
                vector.allocateNew(1000);
                for (int i = 0; i < 1000; i++) {
                    vector.set(i, i * 3L);
                }
                root.setRowCount(1000);
                writer.start();
                writer.writeBatch();
                writer.end();
            }
            List<Object> values = TensorValues.of(read(out.toByteArray()));
            assertThat(values).hasSize(1000);
            assertThat(values.get(999)).isEqualTo(2997L);
        }
    }

    @Test
    void refusesABatchThatClaimsMoreRowsThanItsBuffersHold() throws IOException {
        // found by fuzzing: 1354 bytes claiming 16777219 rows, which Arrow Java would have zero-filled (400 MB)
        byte[] bytes;
        try (var in = ArrowSourceReaderTest.class.getResourceAsStream("ArrowSourceReaderFuzzTestInputs/"
                + "readsOrRefusesCleanly/slow-unit-489942fa7c5aaf2dc8158debac8639bf33fa1497")) {
            bytes = in.readAllBytes();
        }
        long start = System.nanoTime();
        assertThatThrownBy(() -> READER.read(
                        "lying.arrow", new ByteArrayInputStream(bytes), bytes.length, ArrowSourceOptions.defaults()))
                .isInstanceOf(SourceFormatException.class)
                .hasMessage("Cannot read lying.arrow: a record batch of 16777219 rows holds 3 values of column"
                        + " 'index'");
        assertThat((System.nanoTime() - start) / 1_000_000).as("milliseconds").isLessThan(1000);
    }

    @Test
    void saysWhenAFileIsNoTensorFormatAtAll() {
        byte[] bytes = "not a tensor\n".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> READER.read(
                        "notes.txt", new ByteArrayInputStream(bytes), bytes.length, ArrowSourceOptions.defaults()))
                .isInstanceOf(SourceFormatException.class)
                .hasMessage("Cannot read notes.txt: it is neither a .npy file, an Arrow IPC file or stream nor a"
                        + " Parquet file: it starts with neither \\x93NUMPY, ARROW1, an Arrow stream message nor PAR1;"
                        + " a directory of Arrow IPC or Parquet files is read as a dataset");
    }

    @Test
    void rejectsAStreamMessageLongerThanTheFile() {
        byte[] bytes = {-1, -1, -1, -1, (byte) 0xF0, (byte) 0xFF, (byte) 0xFF, 0x7F, 1, 2, 3};
        assertThatThrownBy(() -> READER.read(
                        "s.arrows", new ByteArrayInputStream(bytes), bytes.length, ArrowSourceOptions.defaults()))
                .isInstanceOf(SourceFormatException.class)
                .hasMessage("Cannot read s.arrows: the Arrow stream's message at byte 0 declares 2147483632 bytes of "
                        + "metadata but 3 bytes remain");
    }

    @Test
    void rejectsEmptyTruncatedAndOversizedFiles() throws IOException {
        assertThatThrownBy(() ->
                        READER.read("e.arrow", new ByteArrayInputStream(new byte[0]), 0, ArrowSourceOptions.defaults()))
                .hasMessage("Cannot read e.arrow: the file is empty; expected an Arrow " + "IPC file or stream");
        byte[] stream = twoColumns(false, new long[] {0, 1, 2});
        byte[] cutStream = Arrays.copyOf(stream, stream.length - 3);
        assertThatThrownBy(() -> READER.read(
                        "c.arrows",
                        new ByteArrayInputStream(cutStream),
                        cutStream.length,
                        ArrowSourceOptions.defaults()))
                .hasMessage("Cannot read c.arrows: the Arrow stream is truncated: it "
                        + "ends inside the message header at byte " + (stream.length - 8));
        byte[] valid = twoColumns(true, new long[] {0, 1, 2});
        byte[] cut = Arrays.copyOf(valid, valid.length - 3);
        assertThatThrownBy(() -> READER.read(
                        "c.arrow", new ByteArrayInputStream(cut), cut.length, ArrowSourceOptions.defaults()))
                .hasMessage("Cannot read c.arrow: the Arrow IPC file is truncated: it "
                        + "does not end with the ARROW1 magic");
        assertThatThrownBy(() -> READER.read(
                        "c.arrow", new ByteArrayInputStream(cut), valid.length, ArrowSourceOptions.defaults()))
                .hasMessage("Cannot read c.arrow: the file should have " + valid.length + " bytes but ends after "
                        + cut.length);
        ArrowSourceReader tight = new ArrowSourceReader(new SourceLimits(100));
        assertThatThrownBy(() -> tight.read(
                        "c.arrow", new ByteArrayInputStream(valid), valid.length, ArrowSourceOptions.defaults()))
                .hasMessage("Cannot read c.arrow: the file has " + valid.length
                        + " bytes, more than the limit of 100 bytes for a source");
        assertThatThrownBy(() -> tight.read(
                        "c.arrow",
                        new ByteArrayInputStream(valid),
                        ArrowSourceReader.UNKNOWN_LENGTH,
                        ArrowSourceOptions.defaults()))
                .hasMessage("Cannot read c.arrow: the file has more than the limit of 100 bytes for a source");
    }

    @Test
    void rejectsAnIndexThatIsNotAPermutation() throws IOException {
        for (boolean file : new boolean[] {true, false}) {
            byte[] duplicate = twoColumns(file, new long[] {0, 2, 2});
            assertThatThrownBy(() -> read(duplicate))
                    .isInstanceOf(SourceFormatException.class)
                    .hasMessage("Cannot read x.arrow: the index column is not a permutation of 0..2: row 2 holds 2, "
                            + "which an earlier row holds too");
            byte[] outOfRange = twoColumns(file, new long[] {0, 1, 7});
            assertThatThrownBy(() -> read(outOfRange))
                    .hasMessage("Cannot read x.arrow: the index column is not a permutation of 0..2: row 2 holds 7");
            assertThat(TensorValues.of(read(twoColumns(file, new long[] {2, 0, 1}))))
                    .containsExactly("b", "c", "a");
        }
    }

    @Test
    void rejectsAmbiguousColumnsListingThem() throws IOException {
        Schema schema = new Schema(List.of(
                Field.nullable("a", new ArrowType.Int(64, true)), Field.nullable("b", new ArrowType.Int(64, true))));
        byte[] bytes = writeEmpty(schema);
        assertThatThrownBy(() -> read(bytes))
                .hasMessage("Cannot read x.arrow: cannot tell which column holds the "
                        + "tensor among [a, b]; choose one with column or name it 'tensor'");
        assertThat(READER.read(
                                "x.arrow",
                                new ByteArrayInputStream(bytes),
                                bytes.length,
                                ArrowSourceOptions.defaults().withColumn("b"))
                        .shape())
                .isEqualTo(Shape.of(0));
    }

    @Test
    void rejectsUnsupportedTypesAndLyingDtypeMetadata() throws IOException {
        byte[] date = writeEmpty(new Schema(
                List.of(Field.nullable("d", new ArrowType.Date(org.apache.arrow.vector.types.DateUnit.DAY)))));
        assertThatThrownBy(() -> read(date))
                .hasMessageStartingWith("Cannot read x.arrow: column 'd' has type Date(DAY)"
                        + "; supported: Bool, Int(8|16|32|64, signed or unsigned)");
        byte[] lying = writeEmpty(new Schema(List.of(new Field(
                "v",
                new FieldType(true, new ArrowType.Int(32, true), null, Map.of("tensor_broadcast.dtype", "float64")),
                null))));
        assertThatThrownBy(() -> read(lying))
                .hasMessage("Cannot read x.arrow: column 'v' says float64 in "
                        + "tensor_broadcast.dtype but its values are int32");
        byte[] bfloat = writeEmpty(new Schema(List.of(new Field(
                "v",
                new FieldType(true, new ArrowType.Int(16, false), null, Map.of("tensor_broadcast.dtype", "bfloat16")),
                null))));
        assertThat(read(bfloat).dtype()).isEqualTo(DType.BFLOAT16);
    }

    private static SourceTensor read(byte[] bytes) throws IOException {
        return READER.read("x.arrow", new ByteArrayInputStream(bytes), bytes.length, ArrowSourceOptions.defaults());
    }

    /** An index column and a string column 'tensor' holding a, b, c in stored order. */
    private static byte[] twoColumns(boolean file, long[] index) throws IOException {
        Schema schema = new Schema(List.of(
                Field.notNullable("index", new ArrowType.Int(64, true)),
                Field.nullable("tensor", ArrowType.Utf8.INSTANCE)));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
                ArrowWriter writer = file
                        ? new ArrowFileWriter(root, null, Channels.newChannel(out))
                        : new ArrowStreamWriter(root, null, Channels.newChannel(out))) {
            BigIntVector positions = (BigIntVector) root.getVector(0);
            VarCharVector strings = (VarCharVector) root.getVector(1);
            positions.allocateNew(3);
            strings.allocateNew(3);
            List<String> values = new ArrayList<>(List.of("a", "b", "c"));
            for (int i = 0; i < 3; i++) {
                positions.set(i, index[i]);
                strings.setSafe(i, values.get(i).getBytes(StandardCharsets.UTF_8));
            }
            root.setRowCount(3);
            writer.start();
            writer.writeBatch();
            writer.end();
        }
        return out.toByteArray();
    }

    private static byte[] writeEmpty(Schema schema) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
                ArrowWriter writer = new ArrowStreamWriter(root, null, Channels.newChannel(out))) {
            writer.start();
            writer.end();
        }
        return out.toByteArray();
    }
}
