package dev.tensorbroadcast.arrowio;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.Shape;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.ExtensionTypeRegistry;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Arrow's canonical {@code arrow.fixed_shape_tensor} extension type: each value is a tensor of one fixed shape,
 * stored as a {@code FixedSizeList} of {@code product(shape)} elements in row-major order (or in the order of the
 * permutation, when there is one).
 *
 * <p>In Arrow Java a {@code FixedSizeList} type carries only its size; the element type is the type of the field's
 * single child. So this type holds the {@link TensorTypeMetadata} only, and {@link TensorColumn#field} builds
 * the field with its value child. Two tensor types are equal when their metadata are.
 */
public final class FixedShapeTensorType extends ArrowType.ExtensionType {
    public static final String EXTENSION_NAME = "arrow.fixed_shape_tensor";

    private final TensorTypeMetadata metadata;
    private final int listSize;

    public FixedShapeTensorType(TensorTypeMetadata metadata) {
        this.metadata = requireNonNull(metadata, "metadata is null");
        long elements = metadata.elements();
        if (elements > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("Cannot create a fixed_shape_tensor of shape "
                    + metadata.shape().toList() + ": its " + elements + " elements exceed Arrow's list size limit of "
                    + Integer.MAX_VALUE);
        }
        this.listSize = (int) elements;
    }

    /** A row-major tensor type of this shape. */
    public static FixedShapeTensorType of(Shape shape) {
        return new FixedShapeTensorType(TensorTypeMetadata.of(shape));
    }

    /**
     * Registers the type with Arrow Java so that IPC readers return {@link FixedShapeTensorVector}s for it. Safe to
     * call any number of times from any thread.
     */
    public static void register() {
        if (!(ExtensionTypeRegistry.lookup(EXTENSION_NAME) instanceof FixedShapeTensorType)) {
            ExtensionTypeRegistry.register(of(Shape.scalar()));
        }
    }

    public TensorTypeMetadata metadata() {
        return metadata;
    }

    public Shape shape() {
        return metadata.shape();
    }

    /** Elements per tensor: the storage list size. */
    public int listSize() {
        return listSize;
    }

    @Override
    public ArrowType storageType() {
        return new ArrowType.FixedSizeList(listSize);
    }

    @Override
    public String extensionName() {
        return EXTENSION_NAME;
    }

    @Override
    public boolean extensionEquals(ArrowType.ExtensionType other) {
        return other instanceof FixedShapeTensorType that && metadata.equals(that.metadata);
    }

    @Override
    public String serialize() {
        return metadata.toJson();
    }

    @Override
    public ArrowType deserialize(ArrowType storageType, String serializedData) {
        if (!(storageType instanceof ArrowType.FixedSizeList list)) {
            throw new IllegalArgumentException("Cannot read " + EXTENSION_NAME + " stored as " + storageType
                    + ": expected a FixedSizeList storage type");
        }
        TensorTypeMetadata parsed = TensorTypeMetadata.parse(serializedData);
        if (parsed.elements() != list.getListSize()) {
            throw new IllegalArgumentException("Cannot read " + EXTENSION_NAME + " of shape "
                    + parsed.shape().toList()
                    + " stored as FixedSizeList[" + list.getListSize() + "]: expected a list size of "
                    + parsed.elements());
        }
        return new FixedShapeTensorType(parsed);
    }

    @Override
    public FieldVector getNewVector(String name, FieldType fieldType, BufferAllocator allocator) {
        FieldType storageFieldType = new FieldType(
                fieldType.isNullable(), storageType(), fieldType.getDictionary(), fieldType.getMetadata());
        FixedSizeListVector storage = new FixedSizeListVector(name, allocator, storageFieldType, null);
        return new FixedShapeTensorVector(name, fieldType, allocator, storage);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof FixedShapeTensorType that && metadata.equals(that.metadata);
    }

    @Override
    public int hashCode() {
        return 31 * EXTENSION_NAME.hashCode() + metadata.hashCode();
    }

    @Override
    public String toString() {
        return "FixedShapeTensorType" + metadata.toJson();
    }
}
