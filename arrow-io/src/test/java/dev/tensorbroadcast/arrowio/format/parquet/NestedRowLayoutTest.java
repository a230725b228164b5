package dev.tensorbroadcast.arrowio.format.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.TensorColumn;
import dev.tensorbroadcast.arrowio.TensorFileSchema;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.RowLayout;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.source.DatasetOptions;
import dev.tensorbroadcast.arrowio.source.DatasetSlices;
import dev.tensorbroadcast.arrowio.source.TensorDatasets;
import dev.tensorbroadcast.planner.BroadcastPlan;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.SourceRows;
import dev.tensorbroadcast.planner.TargetShape;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Rows written as lists nested one level per dimension: the levels, the schemas, and the values read back. */
class NestedRowLayoutTest {
    private static final Configuration CONF = new Configuration(false);

    @TempDir
    Path dir;

    /** The repetition level of every entry of a row, from the definition: 1 + the outermost index that changed. */
    private static List<Integer> bruteForceRepetition(long[] dims) {
        int filled = 0;
        while (filled < dims.length && dims[filled] > 0) {
            filled++;
        }
        List<Integer> levels = new ArrayList<>();
        long[] index = new long[filled];
        long entries = 1;
        for (int axis = 0; axis < filled; axis++) {
            entries *= dims[axis];
        }
        for (long entry = 0; entry < entries; entry++) {
            if (entry == 0) {
                levels.add(0);
            } else {
                int axis = filled - 1;
                while (++index[axis] == dims[axis]) {
                    index[axis] = 0;
                    axis--;
                }
                levels.add(axis + 1);
            }
        }
        return levels;
    }

    /** One row's repetition levels as the RLE runs write them, decoded. */
    private static List<Integer> expand(RowLevels levels) throws Exception {
        RleRuns runs = new RleRuns(levels.maxRepetition);
        levels.addRow(runs);
        return decode(
                runs.finishWithLength().toByteArray(),
                32 - Integer.numberOfLeadingZeros(levels.maxRepetition),
                levels.entries);
    }

    /**
     * Decodes levels in the RLE/bit-packing hybrid encoding (after the 4-byte length), as a reader would: {@code
     * count} of them, and checks that a bit-packed run's padding is zero.
     */
    private static List<Integer> decode(byte[] bytes, int bitWidth, long count) {
        List<Integer> out = new ArrayList<>();
        int at = 4;
        while (out.size() < count) {
            int header = 0;
            int shift = 0;
            int b;
            do {
                b = bytes[at++] & 0xFF;
                header |= (b & 0x7F) << shift;
                shift += 7;
            } while ((b & 0x80) != 0);
            if ((header & 1) == 0) {
                int value = 0;
                for (int i = 0; i < (bitWidth + 7) / 8; i++) {
                    value |= (bytes[at++] & 0xFF) << (8 * i);
                }
                for (int i = 0; i < header >>> 1; i++) {
                    out.add(value);
                }
            } else {
                int values = (header >>> 1) * 8;
                long bit = (long) at * 8;
                for (int i = 0; i < values; i++) {
                    int value = 0;
                    for (int k = 0; k < bitWidth; k++, bit++) {
                        value |= ((bytes[(int) (bit >>> 3)] >>> (bit & 7)) & 1) << k;
                    }
                    if (out.size() < count) {
                        out.add(value);
                    } else {
                        assertThat(value).as("padding").isZero();
                    }
                }
                at += (header >>> 1) * bitWidth;
            }
        }
        assertThat(at).as("every byte read").isEqualTo(bytes.length);
        return out;
    }

    @ParameterizedTest(name = "rows of {0}")
    @CsvSource(
            delimiter = '|',
            value = {"[6]", "[2,3]", "[3,5]", "[7,2]", "[512,2]", "[2,2,3]", "[4,0,2]", "[300]", "[1,1]"})
    void pagesOfAnyRowCountHoldEachRowsLevels(String shape) throws Exception {
        Shape lists = Shape.parse(shape);
        RowLevels row = new RowLevels(lists);
        List<Integer> oneRow = bruteForceRepetition(lists.dims());
        RepetitionLevels levels = new RepetitionLevels(row);
        int bitWidth = 32 - Integer.numberOfLeadingZeros(row.maxRepetition);
        for (int rows = 1; rows <= 20; rows++) {
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < rows; i++) {
                expected.addAll(oneRow);
            }
            byte[] bytes = levels.encode(rows).toByteArray();
            assertThat(decode(bytes, bitWidth, rows * row.entries))
                    .as("%d rows", rows)
                    .isEqualTo(expected);
        }
        // short innermost lists are bit-packed; long runs stay RLE
        assertThat(new RepetitionLevels(new RowLevels(Shape.of(512, 2))).packed())
                .isTrue();
        assertThat(new RepetitionLevels(new RowLevels(Shape.of(4096))).packed()).isFalse();
        assertThat(new RepetitionLevels(new RowLevels(Shape.of(64, 64))).packed())
                .isFalse();
    }

    @Test
    void levelsOfEveryShapeUpToRankFourMatchTheirDefinition() throws Exception {
        int checked = 0;
        for (int rank = 1; rank <= 4; rank++) {
            long[] dims = new long[rank];
            int combinations = (int) Math.pow(4, rank);
            for (int code = 0; code < combinations; code++) {
                int rest = code;
                for (int axis = 0; axis < rank; axis++) {
                    dims[axis] = rest % 4;
                    rest /= 4;
                }
                RowLevels levels = new RowLevels(Shape.of(dims));
                List<Integer> expected = bruteForceRepetition(dims);
                assertThat(expand(levels)).as("%s", Shape.of(dims)).isEqualTo(expected);
                assertThat(levels.entries).isEqualTo(expected.size());
                int filled = 0;
                while (filled < rank && dims[filled] > 0) {
                    filled++;
                }
                assertThat(levels.empty).isEqualTo(filled < rank);
                assertThat(levels.emptyDefinition).isEqualTo(filled);
                assertThat(levels.present).isEqualTo(rank + 1);
                assertThat(levels.maxRepetition).isEqualTo(rank);
                checked++;
            }
        }
        assertThat(checked).isEqualTo(4 + 16 + 64 + 256);
    }

    @Test
    void aRowOfTwoByThreeRepeatsAtTheInnerListThenStartsAnOuterEntry() throws Exception {
        RowLevels levels = new RowLevels(Shape.of(2, 3));
        assertThat(expand(levels)).containsExactly(0, 2, 2, 1, 2, 2);
        assertThat(levels.runs()).isEqualTo(4);
        // an innermost dim of 1: every entry starts an outer one, a single run after the first
        assertThat(new RowLevels(Shape.of(5, 1)).runs()).isEqualTo(2);
    }

    @Test
    void theSchemaNestsOneListPerStoredDimension() {
        ParquetTensorSchema schema = new ParquetTensorSchema(
                new TensorColumn("tensor", DType.FLOAT32, Shape.of(4, 3)), List.of(), RowLayout.NESTED);
        assertThat(schema.messageType().toString().replaceAll("\\s+", " ").strip())
                .isEqualTo(
                        "message tensor_broadcast { required int64 index; required group tensor (LIST) { repeated group list"
                                + " { required group element (LIST) { repeated group list { optional float element; } } } } }");
        assertThat(schema.valuesDescriptor().getMaxRepetitionLevel()).isEqualTo(2);
        assertThat(schema.valuesDescriptor().getMaxDefinitionLevel()).isEqualTo(3);
        assertThat(schema.entriesPerRow()).isEqualTo(12);
        // rows of one dimension are the same in both layouts
        TensorColumn vector = new TensorColumn("tensor", DType.FLOAT32, Shape.of(7));
        assertThat(new ParquetTensorSchema(vector, List.of(), RowLayout.NESTED).messageType())
                .isEqualTo(new ParquetTensorSchema(vector).messageType());
        // a complex row's innermost list is its element's real and imaginary part
        ParquetTensorSchema complex = new ParquetTensorSchema(
                new TensorColumn("tensor", DType.COMPLEX64, Shape.of(3)), List.of(), RowLayout.NESTED);
        assertThat(complex.valuesDescriptor().getMaxRepetitionLevel()).isEqualTo(2);
        assertThat(complex.entriesPerRow()).isEqualTo(6);
    }

    @Test
    void theArrowSchemaSaysNestedFixedSizeListsWithTheDtype() throws Exception {
        ParquetTensorSchema schema = new ParquetTensorSchema(
                new TensorColumn("tensor", DType.BFLOAT16, Shape.of(4, 3)), List.of(), RowLayout.NESTED);
        byte[] message = Base64.getDecoder().decode(schema.arrowSchema());
        Field tensor = MessageSerializer.deserializeSchema(
                        new ReadChannel(Channels.newChannel(new ByteArrayInputStream(message))))
                .findField("tensor");
        assertThat(tensor.getType()).isEqualTo(new ArrowType.FixedSizeList(4));
        assertThat(tensor.getMetadata()).containsEntry("tensor_broadcast.dtype", "bfloat16");
        Field inner = tensor.getChildren().get(0);
        assertThat(inner.getType()).isEqualTo(new ArrowType.FixedSizeList(3));
        assertThat(inner.isNullable()).isFalse();
        assertThat(inner.getChildren().get(0).getType()).isEqualTo(new ArrowType.Int(16, false));
    }

    private static SourceTensor floats(Shape shape) {
        ByteBuffer bytes = ByteBuffer.allocate((int) shape.elements() * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < shape.elements(); i++) {
            bytes.putFloat(i * 4, i + 0.5f);
        }
        return SourceTensor.fixedWidth(DType.FLOAT32, shape, bytes.array(), null);
    }

    /** Writes every partition of the broadcast into {@code directory} in {@code layout}; returns the plan. */
    private PartitionPlan write(
            SourceTensor source, BroadcastPlan plan, RowLayout layout, Path directory, long pageBytes)
            throws Exception {
        Files.createDirectories(directory);
        PartitionPlan partitions = PartitionPlan.builderFor(plan).partitions(3).build();
        TensorKernel kernel = TensorKernel.of(source, plan.copyProgram(0));
        FileSystem fileSystem = FileSystem.getLocal(CONF);
        ParquetTensorFileWriter writer = ParquetTensorFileWriter.create()
                .withBatchBytes(200)
                .withOptions(new ParquetWriteOptions(CompressionCodecName.ZSTD, pageBytes).withRowLayout(layout));
        for (long p = 0; p < partitions.partitionCount(); p++) {
            writer.write(
                    kernel,
                    partitions.rowShape(),
                    partitions.partition(p),
                    fileSystem,
                    new org.apache.hadoop.fs.Path(
                            directory.resolve("part-" + p + ".parquet").toUri()));
        }
        return partitions;
    }

    @ParameterizedTest(name = "{0} to {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "[4,1,3]      | [4,5,3]",
                "[1,2,1,4]    | [6,2,3,4]",
                "[7,1]        | [2,2,7,9]",
            })
    void parquetJavaSeesNestedListsHoldingTheBroadcastsValues(String input, String target) throws Exception {
        Shape inputShape = Shape.parse(input);
        BroadcastPlan plan = BroadcastRequest.builder(Dialect.NUMPY)
                .input(inputShape)
                .target(TargetShape.parse(target))
                .build()
                .plan();
        SourceTensor source = floats(inputShape);
        PartitionPlan partitions = write(source, plan, RowLayout.NESTED, dir.resolve("nested"), 64);
        Shape rowShape = partitions.rowShape();
        assertThat(rowShape.rank()).isGreaterThanOrEqualTo(2);

        // the expected values, by the broadcast's definition: output index -> input index, dims of 1 pinned to 0
        Shape output = plan.output();
        long[] strides = inputShape.strides();
        int offset = output.rank() - inputShape.rank();
        List<Float> expected = new ArrayList<>();
        long[] index = new long[output.rank()];
        for (long e = 0; e < output.elements(); e++) {
            long rest = e;
            for (int axis = output.rank() - 1; axis >= 0; axis--) {
                index[axis] = rest % output.dim(axis);
                rest /= output.dim(axis);
            }
            long from = 0;
            for (int axis = 0; axis < inputShape.rank(); axis++) {
                from += (inputShape.dim(axis) == 1 ? 0 : index[axis + offset]) * strides[axis];
            }
            expected.add(from + 0.5f);
        }

        List<Float> actual = new ArrayList<>();
        long rows = 0;
        for (long p = 0; p < partitions.partitionCount(); p++) {
            try (ParquetReader<Group> reader = ParquetReader.builder(
                            new GroupReadSupport(),
                            new org.apache.hadoop.fs.Path(
                                    dir.resolve("nested/part-" + p + ".parquet").toUri()))
                    .withConf(CONF)
                    .build()) {
                for (Group row = reader.read(); row != null; row = reader.read()) {
                    assertThat(row.getLong(TensorFileSchema.INDEX_COLUMN, 0)).isEqualTo(rows++);
                    collect(row.getGroup("tensor", 0), rowShape, 0, actual);
                }
            }
        }
        assertThat(rows).isEqualTo(partitions.rows());
        assertThat(actual).isEqualTo(expected);
    }

    /** Walks one nested list, checking each level holds exactly its dimension's entries. */
    private static void collect(Group list, Shape rowShape, int axis, List<Float> into) {
        assertThat(list.getFieldRepetitionCount("list")).isEqualTo((int) rowShape.dim(axis));
        for (int i = 0; i < rowShape.dim(axis); i++) {
            Group entry = list.getGroup("list", i);
            if (axis == rowShape.rank() - 1) {
                into.add(entry.getFloat("element", 0));
            } else {
                collect(entry.getGroup("element", 0), rowShape, axis + 1, into);
            }
        }
    }

    @Test
    void ourDatasetReaderReadsTheNestedFilesAsTheFlatOnes() throws Exception {
        Shape inputShape = Shape.of(5, 1, 3);
        BroadcastPlan plan = BroadcastRequest.builder(Dialect.NUMPY)
                .input(inputShape)
                .target(TargetShape.parse("[5,4,3]"))
                .build()
                .plan();
        SourceTensor source = floats(inputShape);
        write(source, plan, RowLayout.FLAT, dir.resolve("flat"), 1 << 20);
        write(source, plan, RowLayout.NESTED, dir.resolve("nested"), 1 << 20);
        TensorDataset flat = open(dir.resolve("flat"));
        TensorDataset nested = open(dir.resolve("nested"));
        assertThat(nested.dtype()).isEqualTo(DType.FLOAT32);
        assertThat(nested.rowShape()).isEqualTo(Shape.of(4, 3)).isEqualTo(flat.rowShape());
        assertThat(nested.rows()).isEqualTo(5);
        for (SourceRows rows : List.of(new SourceRows(0, 5), new SourceRows(1, 4), new SourceRows(4, 5))) {
            assertThat(DatasetSlices.read(nested, rows, CONF).tensor().values())
                    .as("%s", rows)
                    .isEqualTo(DatasetSlices.read(flat, rows, CONF).tensor().values());
        }
    }

    @Test
    void rowsWithoutValuesStayOneEmptyListAsInTheFlatLayout() throws Exception {
        // [3,0,2] rows have no values: nesting them would give each row more level entries than values
        Shape inputShape = Shape.of(1, 3, 0, 2);
        BroadcastPlan plan = BroadcastRequest.builder(Dialect.NUMPY)
                .input(inputShape)
                .target(TargetShape.parse("[4,3,0,2]"))
                .build()
                .plan();
        PartitionPlan partitions = write(floats(inputShape), plan, RowLayout.NESTED, dir.resolve("empty"), 64);
        assertThat(partitions.rowShape()).isEqualTo(Shape.of(3, 0, 2));
        TensorColumn column = new TensorColumn("tensor", DType.FLOAT32, Shape.of(3, 0, 2));
        assertThat(new ParquetTensorSchema(column, List.of(), RowLayout.NESTED).messageType())
                .isEqualTo(new ParquetTensorSchema(column).messageType());
        assertThat(column.nestedField()).isEqualTo(column.field());
        int rows = 0;
        for (long p = 0; p < partitions.partitionCount(); p++) {
            try (ParquetReader<Group> reader = ParquetReader.builder(
                            new GroupReadSupport(),
                            new org.apache.hadoop.fs.Path(
                                    dir.resolve("empty/part-" + p + ".parquet").toUri()))
                    .withConf(CONF)
                    .build()) {
                for (Group row = reader.read(); row != null; row = reader.read()) {
                    assertThat(row.getGroup("tensor", 0).getFieldRepetitionCount("list"))
                            .isZero();
                    rows++;
                }
            }
        }
        assertThat(rows).isEqualTo(4);
        assertThat(open(dir.resolve("empty")).rowShape()).isEqualTo(Shape.of(3, 0, 2));
    }

    @Test
    void rowsOfOneRunStayRleAndShortInnerListsArePacked() {
        // one value per row (or none): the rows' levels merge into one RLE run per page, never packed
        assertThat(new RepetitionLevels(new RowLevels(Shape.of(1))).packed()).isFalse();
        assertThat(new RepetitionLevels(new RowLevels(Shape.of(0))).packed()).isFalse();
        assertThat(new RepetitionLevels(new RowLevels(Shape.of(2))).packed()).isTrue();
        // the row's runs are generated, not stored: a row of a billion pairs costs its walk, no memory
        assertThat(new RowLevels(Shape.of(1_000_000_000L, 2)).entries).isEqualTo(2_000_000_000L);
    }

    private static TensorDataset open(Path directory) throws Exception {
        return TensorDatasets.open(
                FileSystem.getLocal(CONF),
                new org.apache.hadoop.fs.Path(directory.toUri()),
                directory.toString(),
                DatasetOptions.defaults());
    }
}
