package dev.tensorbroadcast.arrowio.format.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.ArrowDTypes;
import dev.tensorbroadcast.arrowio.RandomTensors;
import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.DatasetFileReader;
import dev.tensorbroadcast.arrowio.format.ElementBatch;
import dev.tensorbroadcast.arrowio.format.RowLayout;
import dev.tensorbroadcast.planner.BroadcastPlan;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.Partition;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.Shape;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The one Parquet reader reading a file this tool wrote whole, batch by batch ({@code verify}, {@code export}): every
 * dtype the writer takes, with nulls, in both row layouts, over several row groups, checked against the copy
 * program's source element; and a file that is not what the manifest says.
 */
class ParquetTensorReaderTest {
    private static final Configuration CONF = new Configuration(false);

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @EnumSource(DType.class)
    void readsEveryDtypeWholeInBothLayouts(DType dtype) throws Exception {
        for (RowLayout layout : RowLayout.values()) {
            Shape input = Shape.of(3, 1, 4);
            BroadcastPlan plan = BroadcastRequest.builder(Dialect.NUMPY)
                    .input(input, dtype)
                    .target(3, 5, 4)
                    .build()
                    .plan();
            SourceTensor source = RandomTensors.source(new Random(dtype.ordinal()), dtype, input, true);
            Shape rowShape = Shape.of(5, 4);
            org.apache.hadoop.fs.Path file = write(source, plan, rowShape, layout);
            CopyProgram program = plan.copyProgram(0);
            long rowElements = rowShape.elements();
            long length = FileSystem.getLocal(CONF).getFileStatus(file).getLen();
            long rows = 0;
            int batches = 0;
            try (BufferAllocator allocator = new RootAllocator();
                    DatasetFileReader reader = new ParquetFormat()
                            .openBatches(FileSystem.getLocal(CONF), file, length, allocator, dtype, rowShape, layout)) {
                for (ElementBatch batch = reader.next(); batch != null; batch = reader.next()) {
                    assertThat(batch.firstRow()).isEqualTo(rows);
                    for (int i = 0; i < batch.elements(); i++) {
                        long element = batch.firstRow() * rowElements + i;
                        long from = program.sourceIndex(element);
                        assertThat(batch.isValid(i))
                                .as("%s %s element %d valid", dtype, layout, element)
                                .isEqualTo(source.isValid(from));
                        if (source.isValid(from)) {
                            assertThat(value(batch, i))
                                    .as("%s %s element %d", dtype, layout, element)
                                    .isEqualTo(value(source, from));
                        }
                    }
                    rows += batch.rows();
                    batches++;
                }
            }
            assertThat(rows).isEqualTo(3);
            assertThat(batches).as("row groups of one row each").isEqualTo(3);
        }
    }

    @Test
    void aFileOfAnotherDtypeIsRefusedWithItsSchema() throws Exception {
        Shape input = Shape.of(2, 3);
        BroadcastPlan plan = BroadcastRequest.builder(Dialect.NUMPY)
                .input(input, DType.FLOAT32)
                .target(2, 3)
                .build()
                .plan();
        org.apache.hadoop.fs.Path file = write(
                RandomTensors.source(new Random(1), DType.FLOAT32, input, false), plan, Shape.of(3), RowLayout.FLAT);
        long length = FileSystem.getLocal(CONF).getFileStatus(file).getLen();
        try (BufferAllocator allocator = new RootAllocator()) {
            assertThatThrownBy(() -> new ParquetFormat()
                            .openBatches(
                                    FileSystem.getLocal(CONF),
                                    file,
                                    length,
                                    allocator,
                                    DType.FLOAT64,
                                    Shape.of(3),
                                    RowLayout.FLAT))
                    .isInstanceOf(java.io.IOException.class)
                    .hasMessageStartingWith("its schema is not the one for float64 rows of (3,): found message")
                    .hasMessageContaining("optional float element");
        }
    }

    private org.apache.hadoop.fs.Path write(SourceTensor source, BroadcastPlan plan, Shape rowShape, RowLayout layout)
            throws Exception {
        PartitionPlan partitions = PartitionPlan.builderFor(plan).partitions(1).build();
        assertThat(partitions.rowShape()).isEqualTo(rowShape);
        Partition partition = partitions.partition(0);
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(
                dir.resolve(source.dtype() + "-" + layout + ".parquet").toUri());
        // one row per row group: the reader goes from group to group
        ParquetTensorFileWriter.create()
                .withBatchBytes(1)
                .withOptions(ParquetWriteOptions.defaults().withRowLayout(layout))
                .write(
                        TensorKernel.of(source, plan.copyProgram(0)),
                        rowShape,
                        partition,
                        FileSystem.getLocal(CONF),
                        file);
        return file;
    }

    /** An element as a value that compares by content: a NaN equals a NaN of the same type. */
    private static Object value(ElementBatch batch, int i) {
        DType dtype = batch.dtype();
        return switch (dtype) {
            case BOOL -> batch.bit(i);
            case STRING -> {
                int start = batch.offsets().getInt(4L * i);
                byte[] bytes = new byte[batch.offsets().getInt(4L * (i + 1)) - start];
                batch.data().getBytes(start, bytes);
                yield Arrays.toString(bytes);
            }
            default -> {
                byte[] bytes = new byte[dtype.byteWidth()];
                batch.values().getBytes((long) i * dtype.byteWidth(), bytes);
                yield fixed(dtype, bytes);
            }
        };
    }

    private static Object value(SourceTensor source, long index) {
        DType dtype = source.dtype();
        return switch (dtype) {
            case BOOL -> (source.values()[(int) (index >>> 3)] & (1 << (index & 7))) != 0;
            case STRING ->
                Arrays.toString(Arrays.copyOfRange(
                        source.values(), source.offsets()[(int) index], source.offsets()[(int) index + 1]));
            default ->
                fixed(
                        dtype,
                        Arrays.copyOfRange(
                                source.values(),
                                (int) index * dtype.byteWidth(),
                                (int) (index + 1) * dtype.byteWidth()));
        };
    }

    private static Object fixed(DType dtype, byte[] bytes) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        return switch (dtype) {
            case FLOAT32 -> buffer.getFloat();
            case FLOAT64 -> buffer.getDouble();
            case COMPLEX64 -> Arrays.asList(buffer.getFloat(), buffer.getFloat());
            case COMPLEX128 -> Arrays.asList(buffer.getDouble(), buffer.getDouble());
            default -> {
                assertThat(ArrowDTypes.isComplex(dtype)).isFalse();
                yield Arrays.toString(bytes);
            }
        };
    }
}
