package dev.tensorbroadcast.arrowio;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * A column of tensors: its name, logical dtype and row shape. {@link #field()} builds the Arrow field we write;
 * {@link #fromField} recognises one in a file, whether or not {@link FixedShapeTensorType} is registered.
 */
public record TensorColumn(String name, DType dtype, Shape rowShape) {
    /** The name of the storage list's child, as pyarrow names it. */
    public static final String VALUE_FIELD_NAME = "item";

    public TensorColumn {
        requireNonNull(name, "name is null");
        requireNonNull(dtype, "dtype is null");
        requireNonNull(rowShape, "rowShape is null");
    }

    /** The shape of one stored tensor: the row shape, plus a trailing 2 for complex types. */
    public Shape storageShape() {
        return ArrowDTypes.storageShape(dtype, rowShape);
    }

    /**
     * The field: an {@code arrow.fixed_shape_tensor} (a plain {@code FixedSizeList} for strings) of the dtype's
     * value type, rows never null, elements nullable, and the logical dtype in the field metadata.
     */
    public Field field() {
        TensorTypeMetadata metadata = TensorTypeMetadata.of(storageShape());
        Map<String, String> fieldMetadata = new HashMap<>();
        fieldMetadata.put(ArrowDTypes.DTYPE_KEY, dtype.typeName());
        ArrowType type;
        if (ArrowDTypes.usesExtensionType(dtype)) {
            type = new FixedShapeTensorType(metadata);
        } else {
            long elements = metadata.elements();
            if (elements > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("Cannot create a tensor column of shape " + rowShape.toList()
                        + ": its " + elements + " elements exceed Arrow's list size limit of " + Integer.MAX_VALUE);
            }
            type = new ArrowType.FixedSizeList((int) elements);
            fieldMetadata.put(ArrowDTypes.TENSOR_KEY, metadata.toJson());
        }
        Field values = new Field(VALUE_FIELD_NAME, FieldType.nullable(ArrowDTypes.valueType(dtype)), null);
        return new Field(name, new FieldType(false, type, null, Map.copyOf(fieldMetadata)), List.of(values));
    }

    /**
     * The field of rows stored as lists nested one level per stored dimension, outermost first: {@code
     * fixed_size_list<fixed_size_list<float, 3>, 4>} for [4,3] float32 rows (a complex row's innermost list holds
     * the real and imaginary part). The logical dtype is in the field metadata, as in {@link #field()}; no tensor
     * type, since the nesting is the shape. Rows of fewer than two stored dimensions, or without values, get
     * {@link #field()}.
     */
    public Field nestedField() {
        Shape storage = storageShape();
        if (storage.rank() < 2 || storage.elements() == 0) {
            return field();
        }
        for (long dim : storage.dims()) {
            if (dim > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("Cannot create a nested tensor column of shape "
                        + rowShape.toList() + ": dimension " + dim + " exceeds Arrow's list size limit of "
                        + Integer.MAX_VALUE);
            }
        }
        Field level = new Field(VALUE_FIELD_NAME, FieldType.nullable(ArrowDTypes.valueType(dtype)), null);
        for (int axis = storage.rank() - 1; axis > 0; axis--) {
            level = new Field(
                    VALUE_FIELD_NAME,
                    FieldType.notNullable(new ArrowType.FixedSizeList((int) storage.dim(axis))),
                    List.of(level));
        }
        return new Field(
                name,
                new FieldType(
                        false,
                        new ArrowType.FixedSizeList((int) storage.dim(0)),
                        null,
                        Map.of(ArrowDTypes.DTYPE_KEY, dtype.typeName())),
                List.of(level));
    }

    /**
     * Recognises a tensor column: a registered {@link FixedShapeTensorType}, an unregistered one (a
     * {@code FixedSizeList} whose field metadata names {@code arrow.fixed_shape_tensor}), or our string form. The
     * dtype comes from {@link ArrowDTypes#DTYPE_KEY} when present and must agree with the value type.
     */
    public static TensorColumn fromField(Field field) {
        requireNonNull(field, "field is null");
        Map<String, String> fieldMetadata = field.getMetadata() == null ? Map.of() : field.getMetadata();
        TensorTypeMetadata metadata;
        if (field.getType() instanceof FixedShapeTensorType tensorType) {
            metadata = tensorType.metadata();
        } else if (field.getType() instanceof ArrowType.FixedSizeList list) {
            String json = FixedShapeTensorType.EXTENSION_NAME.equals(
                            fieldMetadata.get(ArrowType.ExtensionType.EXTENSION_METADATA_KEY_NAME))
                    ? fieldMetadata.get(ArrowType.ExtensionType.EXTENSION_METADATA_KEY_METADATA)
                    : fieldMetadata.get(ArrowDTypes.TENSOR_KEY);
            if (json == null) {
                throw notTensor(
                        field,
                        "a FixedSizeList without arrow.fixed_shape_tensor or " + ArrowDTypes.TENSOR_KEY + " metadata");
            }
            metadata = TensorTypeMetadata.parse(json);
            if (metadata.elements() != list.getListSize()) {
                throw notTensor(
                        field,
                        "its shape " + metadata.shape().toList() + " has " + metadata.elements()
                                + " elements but the list size is " + list.getListSize());
            }
        } else {
            throw notTensor(field, "its type is " + field.getType());
        }
        if (!metadata.isRowMajor()) {
            throw notTensor(
                    field,
                    "its permutation " + java.util.Arrays.toString(metadata.permutation())
                            + " is not row-major; only row-major tensors are supported");
        }
        if (field.getChildren().size() != 1) {
            throw notTensor(field, "its storage has " + field.getChildren().size() + " children, expected 1");
        }
        ArrowType valueType = field.getChildren().get(0).getType();
        String dtypeName = fieldMetadata.get(ArrowDTypes.DTYPE_KEY);
        DType dtype;
        if (dtypeName == null) {
            dtype = ArrowDTypes.dtypeOf(valueType);
        } else {
            dtype = DType.parse(dtypeName);
            if (!ArrowDTypes.valueType(dtype).equals(valueType)) {
                throw notTensor(
                        field,
                        "its metadata says " + dtype + " which is stored as " + ArrowDTypes.valueType(dtype)
                                + ", but the values are " + valueType);
            }
        }
        return new TensorColumn(field.getName(), dtype, ArrowDTypes.rowShape(dtype, metadata.shape()));
    }

    private static IllegalArgumentException notTensor(Field field, String reason) {
        return new IllegalArgumentException(
                "Cannot read field '" + field.getName() + "' as a tensor column: " + reason);
    }
}
