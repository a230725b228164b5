package dev.tensorbroadcast.arrowio.format.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.ArrowWriteResult;
import dev.tensorbroadcast.arrowio.RandomTensors;
import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.TensorColumn;
import dev.tensorbroadcast.arrowio.TensorFileSchema;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.planner.BroadcastPlan;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.Partition;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.TargetShape;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
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

/** From a copy program through the kernel to Parquet pages, checked against the planner's reference mapping. */
class ParquetTensorFileWriterTest {
    @TempDir
    Path dir;

    private static SourceTensor floats(Shape shape) {
        ByteBuffer bytes = ByteBuffer.allocate((int) shape.elements() * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < shape.elements(); i++) {
            bytes.putFloat(i * 4, i + 0.5f);
        }
        return SourceTensor.fixedWidth(DType.FLOAT32, shape, bytes.array(), null);
    }

    private static SourceTensor strings(Shape shape) {
        int n = (int) shape.elements();
        List<byte[]> values = new ArrayList<>();
        int[] offsets = new int[n + 1];
        byte[] validity = new byte[(n + 7) / 8];
        for (int i = 0; i < n; i++) {
            byte[] value = i % 4 == 1 ? new byte[0] : ("ü" + i).getBytes(StandardCharsets.UTF_8);
            values.add(value);
            offsets[i + 1] = offsets[i] + value.length;
            if (i % 4 != 1) {
                validity[i / 8] |= (byte) (1 << (i % 8));
            }
        }
        byte[] data = new byte[offsets[n]];
        for (int i = 0; i < n; i++) {
            System.arraycopy(values.get(i), 0, data, offsets[i], values.get(i).length);
        }
        return SourceTensor.strings(shape, offsets, data, validity);
    }

    private List<Group> writeAndRead(
            SourceTensor source,
            BroadcastPlan plan,
            PartitionPlan partitions,
            long index,
            ParquetTensorFileWriter writer)
            throws Exception {
        Partition partition = partitions.partition(index);
        TensorKernel kernel = TensorKernel.of(source, plan.copyProgram(0));
        org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(
                dir.resolve("part-" + index + ".parquet").toUri());
        FileSystem fileSystem = FileSystem.getLocal(new Configuration(false));
        ArrowWriteResult result = writer.write(kernel, partitions.rowShape(), partition, fileSystem, path);
        assertThat(result.rows()).isEqualTo(partition.rowCount());
        assertThat(result.bytes()).isEqualTo(fileSystem.getFileStatus(path).getLen());
        List<Group> rows = new ArrayList<>();
        try (ParquetReader<Group> reader = ParquetReader.builder(new GroupReadSupport(), path)
                .withConf(new Configuration(false))
                .build()) {
            for (Group group = reader.read(); group != null; group = reader.read()) {
                rows.add(group);
            }
        }
        assertThat(rows).hasSize((int) partition.rowCount());
        return rows;
    }

    @ParameterizedTest(name = "{0} to {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "[1,64]     | [300,64]",
                "[40,1]     | [40,50]",
                "[6,1,8]    | [6,30,8]",
                "[3,1,4,1]  | [2,3,5,4,7]",
            })
    void floatsMatchTheReferenceMapping(String input, String target) throws Exception {
        Shape inputShape = Shape.parse(input);
        BroadcastPlan plan = BroadcastRequest.builder(Dialect.NUMPY)
                .input(inputShape)
                .target(TargetShape.parse(target))
                .build()
                .plan();
        PartitionPlan partitions = PartitionPlan.builderFor(plan).partitions(3).build();
        CopyProgram program = plan.copyProgram(0);
        SourceTensor source = floats(inputShape);
        // small batches and pages, so row groups and pages start inside repeated blocks
        ParquetTensorFileWriter writer = ParquetTensorFileWriter.create()
                .withBatchBytes(1000)
                .withOptions(new ParquetWriteOptions(CompressionCodecName.ZSTD, 300));
        for (long p = 0; p < partitions.partitionCount(); p++) {
            Partition partition = partitions.partition(p);
            List<Group> rows = writeAndRead(source, plan, partitions, p, writer);
            for (int r = 0; r < rows.size(); r++) {
                long row = partition.firstRow() + r;
                assertThat(rows.get(r).getLong("index", 0)).isEqualTo(row);
                Group list = rows.get(r).getGroup("tensor", 0);
                assertThat((long) list.getFieldRepetitionCount("list")).isEqualTo(partitions.rowElements());
                for (int e = 0; e < partitions.rowElements(); e++) {
                    long element = row * partitions.rowElements() + e;
                    assertThat(list.getGroup("list", e).getFloat("element", 0))
                            .as("element %d", element)
                            .isEqualTo(program.sourceIndex(element) + 0.5f);
                }
            }
        }
    }

    @Test
    void stringsWithNullsMatchTheReferenceMapping() throws Exception {
        Shape inputShape = Shape.of(5, 1);
        BroadcastPlan plan = BroadcastRequest.builder(Dialect.NUMPY)
                .input(inputShape, DType.STRING)
                .target(4, 5, 3)
                .build()
                .plan();
        PartitionPlan partitions = PartitionPlan.builderFor(plan).partitions(2).build();
        CopyProgram program = plan.copyProgram(0);
        SourceTensor source = strings(inputShape);
        for (long p = 0; p < partitions.partitionCount(); p++) {
            Partition partition = partitions.partition(p);
            List<Group> rows = writeAndRead(source, plan, partitions, p, ParquetTensorFileWriter.create());
            for (int r = 0; r < rows.size(); r++) {
                Group list = rows.get(r).getGroup("tensor", 0);
                for (int e = 0; e < partitions.rowElements(); e++) {
                    long element = (partition.firstRow() + r) * partitions.rowElements() + e;
                    long from = program.sourceIndex(element);
                    Group item = list.getGroup("list", e);
                    if (from % 4 == 1) {
                        assertThat(item.getFieldRepetitionCount("element"))
                                .as("null %d", element)
                                .isZero();
                    } else {
                        assertThat(item.getString("element", 0))
                                .as("element %d", element)
                                .isEqualTo("ü" + from);
                    }
                }
            }
        }
    }

    @Test
    void rejectsAPartitionBeyondTheOutput() throws Exception {
        Shape inputShape = Shape.of(3);
        BroadcastPlan plan = BroadcastRequest.builder(Dialect.NUMPY)
                .input(inputShape)
                .target(2, 3)
                .build()
                .plan();
        TensorKernel kernel = TensorKernel.of(floats(inputShape), plan.copyProgram(0));
        org.apache.hadoop.fs.Path path =
                new org.apache.hadoop.fs.Path(dir.resolve("beyond.parquet").toUri());
        FileSystem fileSystem = FileSystem.getLocal(new Configuration(false));
        assertThatThrownBy(() -> ParquetTensorFileWriter.create()
                        .write(kernel, inputShape, new Partition(0, 1, 2, 3), fileSystem, path))
                .hasMessage("Cannot write partition 0: it ends at element 9 of an output of 6");
    }

    @Test
    void storesTheSchemaTheArrowWriterWrites() throws Exception {
        TensorColumn column = new TensorColumn("tensor", DType.COMPLEX64, Shape.of(2, 3));
        byte[] message = Base64.getDecoder().decode(new ParquetTensorSchema(column).arrowSchema());
        // as a reader does: without it the tensor column reads back as its storage, and the result would depend on
        // whether an earlier test in this JVM registered the type
        dev.tensorbroadcast.arrowio.FixedShapeTensorType.register();
        try (ReadChannel channel = new ReadChannel(Channels.newChannel(new ByteArrayInputStream(message)))) {
            assertThat(MessageSerializer.deserializeSchema(channel))
                    .isEqualTo(TensorFileSchema.schema(DType.COMPLEX64, Shape.of(2, 3)));
        }
    }

    @Test
    void aFailedWriteLeavesNoFile() throws Exception {
        org.apache.hadoop.fs.Path path =
                new org.apache.hadoop.fs.Path(dir.resolve("part-0.parquet").toUri());
        FileSystem fileSystem = FileSystem.getLocal(new Configuration(false));
        assertThatThrownBy(() -> ParquetTensorFileWriter.create()
                        .withBatchBytes(1)
                        .write(
                                RandomTensors.kernelFailingAtRow3(),
                                Shape.of(1000),
                                new Partition(0, 0, 4, 1000),
                                fileSystem,
                                path))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the data buffer holds ");
        try (var files = java.nio.file.Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }
}
