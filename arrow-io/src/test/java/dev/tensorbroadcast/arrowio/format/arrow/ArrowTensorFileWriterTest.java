package dev.tensorbroadcast.arrowio.format.arrow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.ArrowDTypes;
import dev.tensorbroadcast.arrowio.ArrowWriteResult;
import dev.tensorbroadcast.arrowio.FixedShapeTensorType;
import dev.tensorbroadcast.arrowio.FixedShapeTensorVector;
import dev.tensorbroadcast.arrowio.RandomTensors;
import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.TensorColumn;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.Compression;
import dev.tensorbroadcast.arrowio.format.OutputCompression;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Partition;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.Shape;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Random;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.SeekableReadChannel;
import org.apache.arrow.vector.util.ByteArrayReadableSeekableByteChannel;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ArrowTensorFileWriterTest {
    @BeforeAll
    static void register() {
        FixedShapeTensorType.register();
    }

    @ParameterizedTest
    @EnumSource(DType.class)
    void everyDtypeReadsBackAsTheReferenceMapping(DType dtype) throws Exception {
        Random random = new Random(31L + dtype.ordinal());
        Shape input = Shape.of(3, 1, 5);
        Shape output = Shape.of(8, 3, 7, 5);
        for (boolean nulls : new boolean[] {false, true}) {
            SourceTensor source = RandomTensors.source(random, dtype, input, nulls);
            PartitionPlan plan =
                    PartitionPlan.builder(output, dtype).partitions(3).build();
            for (long p = 0; p < plan.partitionCount(); p++) {
                Partition partition = plan.partition(p);
                // one row per batch: batch boundaries fall inside the broadcast's repeated blocks
                ArrowTensorFileWriter writer = ArrowTensorFileWriter.create().withBatchBytes(1);
                byte[] file = write(writer, source, input, output, plan.rowShape(), partition);
                int batches = verify(
                        file,
                        source,
                        RandomTensors.program(input, output),
                        plan.rowShape(),
                        partition,
                        Compression.NONE);
                assertThat(batches).isEqualTo(partition.rowCount());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = OutputCompression.class,
            names = {"NONE", "LZ4", "ZSTD"})
    void compressedFilesRoundTrip(OutputCompression codec) throws Exception {
        Compression compression = Compression.of(codec);
        Random random = new Random(5);
        Shape input = Shape.of(64, 1);
        Shape output = Shape.of(64, 1000);
        for (DType dtype : new DType[] {DType.FLOAT32, DType.STRING, DType.BOOL, DType.COMPLEX128}) {
            SourceTensor source = RandomTensors.source(random, dtype, input, true);
            PartitionPlan plan = PartitionPlan.builder(output, dtype).build();
            Partition partition = plan.partition(0);
            ArrowTensorFileWriter writer =
                    ArrowTensorFileWriter.create().withBatchBytes(20_000).withCompression(compression);
            byte[] file = write(writer, source, input, output, plan.rowShape(), partition);
            verify(file, source, RandomTensors.program(input, output), plan.rowShape(), partition, compression);
            if (codec != OutputCompression.NONE && dtype == DType.FLOAT32) {
                byte[] plain = write(
                        ArrowTensorFileWriter.create().withBatchBytes(20_000),
                        source,
                        input,
                        output,
                        plan.rowShape(),
                        partition);
                assertThat(file.length).isLessThan(plain.length / 4);
            }
        }
    }

    @Test
    void anEmptyPartitionIsAValidFileWithoutBatches() throws Exception {
        Shape output = Shape.of(0, 4);
        SourceTensor source = SourceTensor.fixedWidth(DType.INT16, Shape.of(4), new byte[8], null);
        PartitionPlan plan = PartitionPlan.builder(output, DType.INT16).build();
        Partition partition = plan.partition(0);
        assertThat(partition.rowCount()).isZero();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ArrowWriteResult result = ArrowTensorFileWriter.create()
                .write(
                        TensorKernel.of(source, RandomTensors.program(Shape.of(4), output)),
                        plan.rowShape(),
                        partition,
                        out);
        assertThat(result).isEqualTo(new ArrowWriteResult(0, out.size(), 0));
        try (BufferAllocator allocator = new RootAllocator();
                ArrowFileReader reader =
                        new ArrowFileReader(new ByteArrayReadableSeekableByteChannel(out.toByteArray()), allocator)) {
            assertThat(reader.getVectorSchemaRoot().getSchema().getFields())
                    .extracting(org.apache.arrow.vector.types.pojo.Field::getName)
                    .containsExactly("index", "tensor");
            assertThat(reader.getVectorSchemaRoot()
                            .getSchema()
                            .getFields()
                            .get(0)
                            .getType())
                    .isEqualTo(new org.apache.arrow.vector.types.pojo.ArrowType.Int(64, true));
            assertThat(TensorColumn.fromField(
                            reader.getVectorSchemaRoot().getSchema().findField("tensor")))
                    .isEqualTo(new TensorColumn("tensor", DType.INT16, Shape.of(4)));
            assertThat(reader.getRecordBlocks()).isEmpty();
            assertThat(reader.loadNextBatch()).isFalse();
        }
    }

    @Test
    void writesToAHadoopFileSystem(@TempDir java.nio.file.Path directory) throws Exception {
        Random random = new Random(11);
        Shape input = Shape.of(1, 6);
        Shape output = Shape.of(10, 6);
        SourceTensor source = RandomTensors.source(random, DType.INT64, input, false);
        PartitionPlan plan =
                PartitionPlan.builder(output, DType.INT64).partitions(2).build();
        Partition partition = plan.partition(1);
        FileSystem fileSystem = FileSystem.getLocal(new Configuration());
        Path path = new Path(directory.resolve("part-1.arrow").toUri());
        ArrowWriteResult result = ArrowTensorFileWriter.create()
                .write(
                        TensorKernel.of(source, RandomTensors.program(input, output)),
                        plan.rowShape(),
                        partition,
                        fileSystem,
                        path);
        byte[] file = Files.readAllBytes(directory.resolve("part-1.arrow"));
        assertThat(result).isEqualTo(new ArrowWriteResult(5, file.length, 1));
        verify(file, source, RandomTensors.program(input, output), plan.rowShape(), partition, Compression.NONE);
    }

    @Test
    void aFailedWriteLeavesNoFile(@TempDir java.nio.file.Path directory) throws Exception {
        FileSystem fileSystem = FileSystem.getLocal(new Configuration());
        Path path = new Path(directory.resolve("part-0.arrow").toUri());
        assertThatThrownBy(() -> ArrowTensorFileWriter.create()
                        .withBatchBytes(1)
                        .write(
                                RandomTensors.kernelFailingAtRow3(),
                                Shape.of(1000),
                                new Partition(0, 0, 4, 1000),
                                fileSystem,
                                path))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the data buffer holds ");
        try (var files = Files.list(directory)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void sizesBatchesByBytesWithAtLeastOneRow() {
        ArrowTensorFileWriter writer = ArrowTensorFileWriter.create();
        // 4096 float32 + 512 validity bytes + 8 index bytes per row
        assertThat(writer.rowsPerBatch(DType.FLOAT32, Shape.of(4096), 0, 1 << 20))
                .isEqualTo((32 << 20) / (16384 + 512 + 8));
        assertThat(writer.rowsPerBatch(DType.FLOAT64, Shape.of(16 << 20), 0, 10))
                .isEqualTo(1);
        assertThat(writer.rowsPerBatch(DType.INT8, Shape.of(10), 0, 7)).isEqualTo(7);
        assertThat(writer.rowsPerBatch(DType.STRING, Shape.of(100), 1000, 1 << 20))
                .isEqualTo((32 << 20) / (100 * 1004 + 13 + 8));
        assertThat(writer.rowsPerBatch(DType.INT8, Shape.of(0), 0, 1L << 40)).isEqualTo(32 << 20 >> 3);
        assertThatThrownBy(() -> ArrowTensorFileWriter.create().withBatchBytes(0))
                .hasMessage("Cannot use batch size 0: it must be at least 1 byte");
    }

    @Test
    void rejectsAPartitionOfAnotherShape() {
        SourceTensor source = SourceTensor.fixedWidth(DType.INT8, Shape.of(3), new byte[3], null);
        TensorKernel kernel = TensorKernel.of(source, RandomTensors.program(Shape.of(3), Shape.of(2, 3)));
        assertThatThrownBy(() -> ArrowTensorFileWriter.create()
                        .write(kernel, Shape.of(4), new Partition(0, 0, 2, 3), new ByteArrayOutputStream()))
                .hasMessage("Cannot write partition 0: its rows have 3 elements but row shape [4] has 4");
        assertThatThrownBy(() -> ArrowTensorFileWriter.create()
                        .write(kernel, Shape.of(3), new Partition(0, 1, 2, 3), new ByteArrayOutputStream()))
                .hasMessage("Cannot write partition 0: it ends at element 9 of an output of 6");
    }

    private static byte[] write(
            ArrowTensorFileWriter writer,
            SourceTensor source,
            Shape input,
            Shape output,
            Shape rowShape,
            Partition partition)
            throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ArrowWriteResult result =
                writer.write(TensorKernel.of(source, RandomTensors.program(input, output)), rowShape, partition, out);
        assertThat(result.rows()).isEqualTo(partition.rowCount());
        assertThat(result.bytes()).isEqualTo(out.size());
        return out.toByteArray();
    }

    /** Checks every row index and every element against the reference mapping; returns the number of batches. */
    private static int verify(
            byte[] file,
            SourceTensor source,
            CopyProgram program,
            Shape rowShape,
            Partition partition,
            Compression compression)
            throws Exception {
        DType dtype = source.dtype();
        int storagePerElement = ArrowDTypes.isComplex(dtype) ? 2 : 1;
        int batches = 0;
        long row = partition.firstRow();
        try (BufferAllocator allocator = new RootAllocator();
                ArrowFileReader reader = new ArrowFileReader(
                        new SeekableReadChannel(new ByteArrayReadableSeekableByteChannel(file)),
                        allocator,
                        CommonsCompressionFactory.INSTANCE)) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            assertThat(TensorColumn.fromField(root.getSchema().findField("tensor")))
                    .isEqualTo(new TensorColumn("tensor", dtype, rowShape));
            while (reader.loadNextBatch()) {
                batches++;
                BigIntVector index = (BigIntVector) root.getVector("index");
                FieldVector tensor = root.getVector("tensor");
                FixedSizeListVector list = tensor instanceof FixedShapeTensorVector vector
                        ? vector.getUnderlyingVector()
                        : (FixedSizeListVector) tensor;
                FieldVector values = list.getDataVector();
                long rowElements = partition.rowElements();
                for (int r = 0; r < root.getRowCount(); r++, row++) {
                    assertThat(index.get(r)).isEqualTo(row);
                    assertThat(list.isNull(r)).isFalse();
                    for (long e = 0; e < rowElements; e++) {
                        long from = program.sourceIndex(row * rowElements + e);
                        int at = (int) (r * rowElements + e);
                        for (int part = 0; part < storagePerElement; part++) {
                            boolean isNull = values.isNull(at * storagePerElement + part);
                            if (isNull == source.isValid(from)) {
                                assertThat(isNull)
                                        .as("null at row %d element %d", row, e)
                                        .isEqualTo(!source.isValid(from));
                            }
                        }
                        checkValue(source, values, from, at, row, e);
                    }
                }
            }
        }
        assertThat(row).isEqualTo(partition.endRow());
        return batches;
    }

    private static void checkValue(SourceTensor source, FieldVector values, long from, int at, long row, long e) {
        DType dtype = source.dtype();
        if (dtype == DType.STRING) {
            VarCharVector strings = (VarCharVector) values;
            byte[] bytes = strings.get(at);
            String actual = bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
            String expected = source.isValid(from) ? RandomTensors.string(source, from) : null;
            if (!java.util.Objects.equals(actual, expected)) {
                assertThat(actual).as("row %d element %d", row, e).isEqualTo(expected);
            }
        } else if (dtype == DType.BOOL) {
            BitVector bits = (BitVector) values;
            if (source.isValid(from)) {
                boolean actual = bits.get(at) == 1;
                if (actual != RandomTensors.bit(source.values(), from)) {
                    assertThat(actual)
                            .as("row %d element %d", row, e)
                            .isEqualTo(RandomTensors.bit(source.values(), from));
                }
            }
        } else {
            int width = dtype.byteWidth();
            byte[] actual = new byte[width];
            values.getDataBuffer().getBytes((long) at * width, actual);
            byte[] expected = Arrays.copyOfRange(source.values(), (int) from * width, (int) (from + 1) * width);
            if (!Arrays.equals(actual, expected)) {
                assertThat(actual).as("row %d element %d", row, e).isEqualTo(expected);
            }
        }
    }
}
