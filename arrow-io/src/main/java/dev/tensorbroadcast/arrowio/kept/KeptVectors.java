package dev.tensorbroadcast.arrowio.kept;

import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/** Vectors of kept columns with the allocator that owns them: what {@link KeptRows} and {@link KeptBatch} hold. */
record KeptVectors(BufferAllocator allocator, VectorSchemaRoot root) implements AutoCloseable {
    /** Empty vectors of {@code columns}, each with room for {@code capacity} values. */
    static KeptVectors allocate(List<KeptColumn> columns, int capacity) {
        BufferAllocator allocator = new RootAllocator();
        try {
            VectorSchemaRoot root = VectorSchemaRoot.create(
                    new Schema(columns.stream().map(KeptColumn::field).toList()), allocator);
            for (FieldVector vector : root.getFieldVectors()) {
                vector.setInitialCapacity(Math.max(1, capacity));
                vector.allocateNew();
            }
            return new KeptVectors(allocator, root);
        } catch (RuntimeException | Error e) {
            allocator.close();
            throw e;
        }
    }

    @Override
    public void close() {
        try {
            root.close();
        } finally {
            allocator.close();
        }
    }
}
