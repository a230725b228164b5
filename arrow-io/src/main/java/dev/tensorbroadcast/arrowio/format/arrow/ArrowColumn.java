package dev.tensorbroadcast.arrowio.format.arrow;

import dev.tensorbroadcast.arrowio.ArrowDTypes;
import dev.tensorbroadcast.arrowio.FixedShapeTensorType;
import dev.tensorbroadcast.arrowio.TensorTypeMetadata;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.planner.BroadcastException;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * How a column of an Arrow source becomes a tensor: a tensor column ({@code arrow.fixed_shape_tensor}, registered or
 * not, our string tensor form, or a plain {@code FixedSizeList}) gives {@code [rows] + rowShape}; a primitive column
 * gives {@code [rows]}.
 *
 * @param name the column's name
 * @param dtype the logical element type
 * @param storage how one stored value is laid out
 * @param width bytes per stored value for {@link Storage#FIXED}
 * @param list whether the column is a list of values per row (a tensor column) rather than one value per row
 * @param listSize stored values per row: the list size of a tensor column, 1 for a primitive column
 * @param storageShape the logical shape of one row's stored values (a complex row has a trailing 2)
 * @param physicalAxes for a permuted tensor, physical axis {@code j} of a row is logical axis
 *     {@code physicalAxes[j]}; null when the storage is row-major
 * @param rowShape the shape of one row of the tensor
 */
@SuppressWarnings("ArrayRecordComponent") // a read plan, never compared; physicalAxes is built here and never changed
public record ArrowColumn(
        String name,
        DType dtype,
        Storage storage,
        int width,
        boolean list,
        int listSize,
        Shape storageShape,
        int[] physicalAxes,
        Shape rowShape) {
    /** How one stored value is laid out in Arrow. */
    enum Storage {
        FIXED,
        BOOL,
        UTF8,
        LARGE_UTF8
    }

    static final String SUPPORTED = "Bool, Int(8|16|32|64, signed or unsigned), FloatingPoint(HALF|SINGLE|DOUBLE), "
            + "Utf8, LargeUtf8, or an arrow.fixed_shape_tensor / FixedSizeList of one of these";

    public static ArrowColumn resolve(String file, Field field) {
        String name = field.getName();
        Map<String, String> metadata = field.getMetadata() == null ? Map.of() : field.getMetadata();
        if (field.getDictionary() != null) {
            throw new SourceFormatException(
                    file,
                    "column '" + name + "' is dictionary-encoded; write it decoded "
                            + "(e.g. pyarrow's dictionary_decode) to read it as a tensor");
        }
        ArrowType type = field.getType();
        String extensionName = metadata.get(ArrowType.ExtensionType.EXTENSION_METADATA_KEY_NAME);
        TensorTypeMetadata tensor = null;
        Field valueField = field;
        if (type instanceof FixedShapeTensorType tensorType) {
            tensor = tensorType.metadata();
        } else if (type instanceof ArrowType.ExtensionType other) {
            throw new SourceFormatException(
                    file,
                    "column '" + name + "' has extension type " + other.extensionName() + "; supported: " + SUPPORTED);
        } else if (type instanceof ArrowType.FixedSizeList list) {
            String json;
            if (extensionName != null) {
                if (!FixedShapeTensorType.EXTENSION_NAME.equals(extensionName)) {
                    throw new SourceFormatException(
                            file,
                            "column '" + name + "' has extension type " + extensionName + "; supported: " + SUPPORTED);
                }
                json = metadata.get(ArrowType.ExtensionType.EXTENSION_METADATA_KEY_METADATA);
                if (json == null) {
                    throw new SourceFormatException(
                            file,
                            "column '" + name + "' is an arrow.fixed_shape_tensor "
                                    + "without ARROW:extension:metadata");
                }
            } else {
                json = metadata.get(ArrowDTypes.TENSOR_KEY);
            }
            List<Long> nested = FixedLists.dims(field);
            try {
                tensor = json == null
                        ? TensorTypeMetadata.of(Shape.of(
                                nested.stream().mapToLong(Long::longValue).toArray()))
                        : TensorTypeMetadata.parse(json);
            } catch (IllegalArgumentException | BroadcastException e) {
                throw new SourceFormatException(file, "column '" + name + "': " + e.getMessage(), e);
            }
            if (json == null && nested.size() > 1) {
                // lists of lists: the row is the nesting, its values the innermost list's
                valueField = FixedLists.values(field);
            } else if (tensor.elements() != list.getListSize()) {
                throw new SourceFormatException(
                        file,
                        "column '" + name + "' has tensor shape "
                                + tensor.shape().toList() + " of " + tensor.elements() + " elements but a list size of "
                                + list.getListSize());
            }
        } else if (extensionName != null) {
            throw new SourceFormatException(
                    file, "column '" + name + "' has extension type " + extensionName + "; supported: " + SUPPORTED);
        }
        @SuppressWarnings("ReferenceEquality") // identity: no nested list's values replaced the column itself
        boolean flat = valueField == field;
        if (tensor != null && flat) {
            if (field.getChildren().size() != 1) {
                throw new SourceFormatException(
                        file,
                        "column '" + name + "' is a list with "
                                + field.getChildren().size() + " children; expected 1");
            }
            valueField = field.getChildren().get(0);
            if (valueField.getDictionary() != null) {
                throw new SourceFormatException(
                        file,
                        "the values of column '" + name + "' are dictionary-encoded; "
                                + "write them decoded to read them as a tensor");
            }
        }
        ArrowType valueType = valueField.getType();
        Storage storage;
        int width = 0;
        DType stored;
        if (valueType instanceof ArrowType.Bool) {
            storage = Storage.BOOL;
            stored = DType.BOOL;
        } else if (valueType instanceof ArrowType.Utf8) {
            storage = Storage.UTF8;
            stored = DType.STRING;
        } else if (valueType instanceof ArrowType.LargeUtf8) {
            storage = Storage.LARGE_UTF8;
            stored = DType.STRING;
        } else if (valueType instanceof ArrowType.Int || valueType instanceof ArrowType.FloatingPoint) {
            storage = Storage.FIXED;
            try {
                stored = ArrowDTypes.dtypeOf(valueType);
            } catch (IllegalArgumentException e) {
                throw unsupported(file, name, valueType);
            }
            width = stored.byteWidth();
        } else {
            throw unsupported(file, name, valueType);
        }
        DType dtype = logicalDType(file, name, metadata.get(ArrowDTypes.DTYPE_KEY), stored);
        if (tensor == null) {
            if (ArrowDTypes.isComplex(dtype)) {
                throw new SourceFormatException(
                        file,
                        "column '" + name + "' says " + dtype + " but is not a tensor "
                                + "column; complex values need a trailing dimension of 2 (real, imaginary)");
            }
            return new ArrowColumn(name, dtype, storage, width, false, 1, Shape.scalar(), null, Shape.scalar());
        }
        long[] physical = tensor.shape().dims();
        long[] logical = physical;
        int[] physicalAxes = null;
        if (!tensor.isRowMajor()) {
            // the canonical spec: shape is the physical shape and logical dimension i is physical dimension
            // permutation[i]
            int[] permutation = tensor.permutation();
            logical = new long[physical.length];
            physicalAxes = new int[physical.length];
            for (int i = 0; i < permutation.length; i++) {
                logical[i] = physical[permutation[i]];
                physicalAxes[permutation[i]] = i;
            }
        }
        Shape storageShape = Shape.of(logical);
        Shape rowShape;
        try {
            rowShape = ArrowDTypes.rowShape(dtype, storageShape);
        } catch (IllegalArgumentException e) {
            throw new SourceFormatException(file, "column '" + name + "': " + e.getMessage(), e);
        }
        return new ArrowColumn(
                name, dtype, storage, width, true, (int) tensor.elements(), storageShape, physicalAxes, rowShape);
    }

    /** The dtype named in the field metadata, which must be stored as the values are, or the values' own dtype. */
    private static DType logicalDType(String file, String name, String declared, DType stored) {
        if (declared == null) {
            return stored;
        }
        DType dtype;
        try {
            dtype = DType.parse(declared);
        } catch (BroadcastException e) {
            throw new SourceFormatException(
                    file,
                    "column '" + name + "' has " + ArrowDTypes.DTYPE_KEY + " '" + declared + "', which is not a dtype",
                    e);
        }
        boolean consistent = dtype == DType.STRING
                ? stored == DType.STRING
                : stored != DType.STRING && ArrowDTypes.valueType(dtype).equals(ArrowDTypes.valueType(stored));
        if (!consistent) {
            throw new SourceFormatException(
                    file,
                    "column '" + name + "' says " + dtype + " in " + ArrowDTypes.DTYPE_KEY + " but its values are "
                            + stored);
        }
        return dtype;
    }

    private static SourceFormatException unsupported(String file, String name, ArrowType type) {
        return new SourceFormatException(file, "column '" + name + "' has type " + type + "; supported: " + SUPPORTED);
    }
}
