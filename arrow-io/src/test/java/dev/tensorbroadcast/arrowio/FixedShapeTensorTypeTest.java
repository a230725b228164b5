package dev.tensorbroadcast.arrowio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.io.ByteArrayOutputStream;
import java.nio.channels.Channels;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.ExtensionTypeRegistry;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.ByteArrayReadableSeekableByteChannel;
import org.junit.jupiter.api.Test;

class FixedShapeTensorTypeTest {
    @Test
    void describesItselfAsTheCanonicalType() {
        FixedShapeTensorType type = FixedShapeTensorType.of(Shape.of(2, 3));
        assertThat(type.extensionName()).isEqualTo("arrow.fixed_shape_tensor");
        assertThat(type.serialize()).isEqualTo("{\"shape\":[2,3]}");
        assertThat(type.storageType()).isEqualTo(new ArrowType.FixedSizeList(6));
        assertThat(type)
                .isEqualTo(FixedShapeTensorType.of(Shape.of(2, 3)))
                .hasSameHashCodeAs(FixedShapeTensorType.of(Shape.of(2, 3)))
                .isNotEqualTo(FixedShapeTensorType.of(Shape.of(3, 2)));
        assertThat(type.deserialize(new ArrowType.FixedSizeList(6), "{\"shape\":[3,2]}"))
                .isEqualTo(FixedShapeTensorType.of(Shape.of(3, 2)));
    }

    @Test
    void deserializeChecksTheStorage() {
        FixedShapeTensorType type = FixedShapeTensorType.of(Shape.of(2, 3));
        assertThatThrownBy(() -> type.deserialize(new ArrowType.FixedSizeList(5), "{\"shape\":[2,3]}"))
                .hasMessage("Cannot read arrow.fixed_shape_tensor of shape [2,3] stored as FixedSizeList[5]:"
                        + " expected a list size of 6");
        assertThatThrownBy(() -> type.deserialize(ArrowType.Utf8.INSTANCE, "{\"shape\":[2,3]}"))
                .hasMessageStartingWith("Cannot read arrow.fixed_shape_tensor stored as Utf8");
    }

    @Test
    void registerIsIdempotent() {
        FixedShapeTensorType.register();
        FixedShapeTensorType.register();
        assertThat(ExtensionTypeRegistry.lookup("arrow.fixed_shape_tensor")).isInstanceOf(FixedShapeTensorType.class);
    }

    @Test
    void survivesAnIpcRoundTripRegisteredOrNot() throws Exception {
        FixedShapeTensorType.register();
        Field field = new TensorColumn("tensor", DType.COMPLEX64, Shape.of(3)).field();
        byte[] file;
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(field)), allocator)) {
            FixedShapeTensorVector vector = (FixedShapeTensorVector) root.getVector("tensor");
            // Arrow Java names a FixedSizeList's child $data$ whatever the schema says; the names carry no meaning
            assertThat(vector.getField().getType()).isEqualTo(field.getType());
            assertThat(vector.getField().getMetadata()).isEqualTo(field.getMetadata());
            assertThat(vector.getField().getChildren().get(0).getType())
                    .isEqualTo(ArrowDTypes.valueType(DType.COMPLEX64));
            FixedSizeListVector storage = vector.getUnderlyingVector();
            Float4Vector values = (Float4Vector) storage.getDataVector();
            values.allocateNew(12);
            storage.allocateNew();
            for (int i = 0; i < 12; i++) {
                values.set(i, i * 0.5f);
            }
            values.setValueCount(12);
            storage.setNotNull(0);
            storage.setNotNull(1);
            root.setRowCount(2);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (ArrowFileWriter writer = new ArrowFileWriter(root, null, Channels.newChannel(out))) {
                writer.start();
                writer.writeBatch();
                writer.end();
            }
            file = out.toByteArray();
        }
        try (BufferAllocator allocator = new RootAllocator();
                ArrowFileReader reader =
                        new ArrowFileReader(new ByteArrayReadableSeekableByteChannel(file), allocator)) {
            Field read = reader.getVectorSchemaRoot().getSchema().getFields().get(0);
            assertThat(read.getType()).isEqualTo(FixedShapeTensorType.of(Shape.of(3, 2)));
            assertThat(TensorColumn.fromField(read))
                    .isEqualTo(new TensorColumn("tensor", DType.COMPLEX64, Shape.of(3)));
            assertThat(reader.loadNextBatch()).isTrue();
            FixedShapeTensorVector vector =
                    (FixedShapeTensorVector) reader.getVectorSchemaRoot().getVector(0);
            assertThat(vector.getObject(1)).isEqualTo(List.of(3.0f, 3.5f, 4.0f, 4.5f, 5.0f, 5.5f));
        }
        ExtensionTypeRegistry.unregister(FixedShapeTensorType.of(Shape.scalar()));
        try (BufferAllocator allocator = new RootAllocator();
                ArrowFileReader reader =
                        new ArrowFileReader(new ByteArrayReadableSeekableByteChannel(file), allocator)) {
            Field read = reader.getVectorSchemaRoot().getSchema().getFields().get(0);
            assertThat(read.getType()).isEqualTo(new ArrowType.FixedSizeList(6));
            assertThat(read.getMetadata())
                    .containsEntry("ARROW:extension:name", "arrow.fixed_shape_tensor")
                    .containsEntry("ARROW:extension:metadata", "{\"shape\":[3,2]}")
                    .containsEntry("tensor_broadcast.dtype", "complex64");
            assertThat(TensorColumn.fromField(read))
                    .isEqualTo(new TensorColumn("tensor", DType.COMPLEX64, Shape.of(3)));
        } finally {
            FixedShapeTensorType.register();
        }
    }
}
