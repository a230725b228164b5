package dev.tensorbroadcast.arrowio.format.arrow;

import java.io.ByteArrayOutputStream;
import java.nio.channels.Channels;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/** Arrow IPC streams written by Arrow Java, too large to commit: one {@code features} list column. */
final class StreamFixtures {
    private StreamFixtures() {}

    /** {@code batches} record batches of {@code rows} rows of {@code values} floats; row r holds r + e. */
    static byte[] listStream(int batches, int rows, int values) throws Exception {
        Field element = new Field(
                "item", FieldType.notNullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null);
        Schema schema =
                new Schema(List.of(new Field("features", FieldType.nullable(new ArrowType.List()), List.of(element))));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
                ArrowStreamWriter writer = new ArrowStreamWriter(root, null, Channels.newChannel(bytes))) {
            writer.start();
            ListVector list = (ListVector) root.getVector(0);
            for (int b = 0; b < batches; b++) {
                list.allocateNew();
                Float4Vector data = (Float4Vector) list.getDataVector();
                data.allocateNew(rows * values);
                for (int r = 0; r < rows; r++) {
                    list.startNewValue(r);
                    long row = (long) b * rows + r;
                    for (int e = 0; e < values; e++) {
                        data.set(r * values + e, row + e);
                    }
                    list.endValue(r, values);
                }
                data.setValueCount(rows * values);
                list.setValueCount(rows);
                root.setRowCount(rows);
                writer.writeBatch();
            }
            writer.end();
        }
        return bytes.toByteArray();
    }
}
