package dev.tensorbroadcast.arrowio;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.util.Arrays;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * How each {@link DType} is stored in Arrow. Most map to the obvious Arrow type; three have none and use a
 * representation pyarrow reads without our code, with the logical dtype kept in the field metadata under
 * {@link #DTYPE_KEY}:
 * <ul>
 *   <li>{@code bfloat16}: {@code uint16}, the raw bits (the upper half of a float32);</li>
 *   <li>{@code complex64} / {@code complex128}: {@code float32} / {@code float64} with one extra trailing tensor
 *       dimension of 2 holding (real, imaginary), so the tensor shape is {@code rowShape + [2]}; the bytes are
 *       exactly numpy's complex layout.</li>
 * </ul>
 */
public final class ArrowDTypes {
    /** Field metadata key holding the logical dtype name, e.g. {@code complex64}. */
    public static final String DTYPE_KEY = "tensor_broadcast.dtype";
    /**
     * Field metadata key holding the tensor metadata JSON of a column that does not use the extension type (strings:
     * see {@link #usesExtensionType}).
     */
    public static final String TENSOR_KEY = "tensor_broadcast.tensor";

    private ArrowDTypes() {}

    /** The Arrow type of one stored value of this dtype. */
    public static ArrowType valueType(DType dtype) {
        requireNonNull(dtype, "dtype is null");
        return switch (dtype) {
            case BOOL -> ArrowType.Bool.INSTANCE;
            case INT8 -> new ArrowType.Int(8, true);
            case INT16 -> new ArrowType.Int(16, true);
            case INT32 -> new ArrowType.Int(32, true);
            case INT64 -> new ArrowType.Int(64, true);
            case UINT8 -> new ArrowType.Int(8, false);
            case UINT16, BFLOAT16 -> new ArrowType.Int(16, false);
            case UINT32 -> new ArrowType.Int(32, false);
            case UINT64 -> new ArrowType.Int(64, false);
            case FLOAT16 -> new ArrowType.FloatingPoint(FloatingPointPrecision.HALF);
            case FLOAT32, COMPLEX64 -> new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
            case FLOAT64, COMPLEX128 -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case STRING -> ArrowType.Utf8.INSTANCE;
        };
    }

    /**
     * The dtype a value type means when the field metadata names none: the inverse of {@link #valueType} for every
     * dtype but {@code bfloat16} and the complex types, which read back as {@code uint16} and floats.
     */
    public static DType dtypeOf(ArrowType valueType) {
        requireNonNull(valueType, "valueType is null");
        if (valueType instanceof ArrowType.Bool) {
            return DType.BOOL;
        }
        if (valueType instanceof ArrowType.Utf8) {
            return DType.STRING;
        }
        if (valueType instanceof ArrowType.Int type) {
            switch (type.getBitWidth()) {
                case 8 -> {
                    return type.getIsSigned() ? DType.INT8 : DType.UINT8;
                }
                case 16 -> {
                    return type.getIsSigned() ? DType.INT16 : DType.UINT16;
                }
                case 32 -> {
                    return type.getIsSigned() ? DType.INT32 : DType.UINT32;
                }
                case 64 -> {
                    return type.getIsSigned() ? DType.INT64 : DType.UINT64;
                }
                default -> {
                    // another width falls through to the error below
                }
            }
        }
        if (valueType instanceof ArrowType.FloatingPoint type) {
            return switch (type.getPrecision()) {
                case HALF -> DType.FLOAT16;
                case SINGLE -> DType.FLOAT32;
                case DOUBLE -> DType.FLOAT64;
            };
        }
        throw new IllegalArgumentException("Cannot map Arrow type " + valueType + " to a dtype: expected one of "
                + "Bool, Int(8|16|32|64, signed or unsigned), FloatingPoint(HALF|SINGLE|DOUBLE) or Utf8");
    }

    /** True for the complex types, stored with an extra trailing dimension of 2. */
    public static boolean isComplex(DType dtype) {
        return dtype == DType.COMPLEX64 || dtype == DType.COMPLEX128;
    }

    /** Stored values per element: 2 for the complex types (real, imaginary), 1 for the others. */
    public static int valuesPerElement(DType dtype) {
        return isComplex(dtype) ? 2 : 1;
    }

    /**
     * Bytes per stored value of a byte-addressed dtype: a complex type's part (4 or 8), else the element's width.
     * Undefined for {@code bool} and {@code string}, as {@link DType#byteWidth} is.
     */
    public static int storageByteWidth(DType dtype) {
        return dtype.byteWidth() / valuesPerElement(dtype);
    }

    /**
     * Whether columns of this dtype use the {@code arrow.fixed_shape_tensor} extension type. Strings do not: the
     * canonical type is meant for tensors pyarrow can turn into numpy arrays (it refuses non-fixed-width values), so
     * a string tensor is a plain {@code FixedSizeList<utf8>} with the shape under {@link #TENSOR_KEY}.
     */
    public static boolean usesExtensionType(DType dtype) {
        return dtype != DType.STRING;
    }

    /** The shape of one stored tensor for a logical row shape: {@code rowShape + [2]} for complex types. */
    public static Shape storageShape(DType dtype, Shape rowShape) {
        requireNonNull(rowShape, "rowShape is null");
        if (!isComplex(dtype)) {
            return rowShape;
        }
        long[] dims = Arrays.copyOf(rowShape.dims(), rowShape.rank() + 1);
        dims[rowShape.rank()] = 2;
        return Shape.of(dims);
    }

    /** The logical row shape of a stored tensor shape: drops the trailing 2 of complex types. */
    public static Shape rowShape(DType dtype, Shape storageShape) {
        requireNonNull(storageShape, "storageShape is null");
        if (!isComplex(dtype)) {
            return storageShape;
        }
        int rank = storageShape.rank();
        if (rank == 0 || storageShape.dim(rank - 1) != 2) {
            throw new IllegalArgumentException("Cannot read a " + dtype + " tensor of stored shape "
                    + storageShape.toList() + ": complex values need a trailing dimension of 2 (real, imaginary)");
        }
        return storageShape.slice(0, rank - 1);
    }
}
