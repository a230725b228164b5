package dev.tensorbroadcast.arrowio;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.hash.ArrowBufHasher;
import org.apache.arrow.vector.ExtensionTypeVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/** A column of {@link FixedShapeTensorType}: a view of its {@code FixedSizeList} storage vector. */
public final class FixedShapeTensorVector extends ExtensionTypeVector<FixedSizeListVector> {
    private final FieldType fieldType;

    public FixedShapeTensorVector(
            String name, FieldType fieldType, BufferAllocator allocator, FixedSizeListVector storage) {
        super(name, allocator, storage);
        this.fieldType = requireNonNull(fieldType, "fieldType is null");
        if (!(fieldType.getType() instanceof FixedShapeTensorType)) {
            throw new IllegalArgumentException("field type " + fieldType.getType() + " is not a fixed_shape_tensor");
        }
    }

    /** The field with the extension type; its children are the storage's, which exist once they are initialized. */
    @Override
    public Field getField() {
        return new Field(getName(), fieldType, getUnderlyingVector().getField().getChildren());
    }

    /** The elements of tensor {@code index} as a list, or null; for tests and debugging, not for hot paths. */
    @Override
    public Object getObject(int index) {
        return getUnderlyingVector().getObject(index);
    }

    @Override
    public int hashCode(int index) {
        return getUnderlyingVector().hashCode(index);
    }

    @Override
    public int hashCode(int index, ArrowBufHasher hasher) {
        return getUnderlyingVector().hashCode(index, hasher);
    }
}
