package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.BroadcastPlan;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.CopySink;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.TargetShape;
import java.io.Serializable;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;

/**
 * {@code tensor_broadcast_to} of one row: the row's tensor (nested arrays, one level per dim, or a flat array whose
 * shape is its column's {@code tensor_shape}) broadcast to {@code target} under the dialect's rule, as nested arrays
 * of the output's rank. The planner plans each input shape once (rows of one shape share the plan) and its copy
 * program fills the output with bulk copies, as it fills a partition.
 *
 * @param leaf the element type
 * @param depth how many array levels the column's type has
 * @param fixed the shape of every row, from the column's metadata, when the rows are flat arrays; else null
 *     (a record of Spark's expression is serialized: no {@code Optional})
 */
record RowBroadcast(Dialect dialect, TargetShape target, DataType leaf, int depth, Shape fixed)
        implements Serializable {
    RowBroadcast {
        requireNonNull(dialect, "dialect is null");
        requireNonNull(target, "target is null");
        requireNonNull(leaf, "leaf is null");
    }

    Optional<Shape> fixedShape() {
        return Optional.ofNullable(fixed);
    }

    /** The last input shape's plan, per thread: the rows of a column mostly share one. */
    private static final ThreadLocal<Object[]> LAST = new ThreadLocal<>();

    /** The plan for {@code input}: refused as the command line refuses the same request. */
    BroadcastPlan plan(Shape input) {
        Object[] last = LAST.get();
        if (last != null && last[0].equals(this) && last[1].equals(input)) {
            return (BroadcastPlan) last[2];
        }
        BroadcastPlan plan = BroadcastRequest.builder(dialect)
                .target(target)
                .input(input)
                .build()
                .plan();
        LAST.set(new Object[] {this, input, plan});
        return plan;
    }

    /** The output's rank: the fixed shape's plan's, else that of an input of ones of the column's rank. */
    int outputRank() {
        if (fixed != null) {
            return plan(fixed).output().rank();
        }
        long[] ones = new long[depth];
        Arrays.fill(ones, 1);
        try {
            return plan(Shape.of(ones)).output().rank();
        } catch (RuntimeException e) {
            return target.rank();
        }
    }

    /** Broadcasts one row. */
    ArrayData apply(ArrayData row) {
        List<ArrayData> leaves = new ArrayList<>();
        Shape shape = fixed != null ? fixed : nestedShape(row, leaves);
        if (fixed != null) {
            if (row.numElements() != shape.elements()) {
                throw new InvalidRequestException("Cannot broadcast a row of " + row.numElements() + " values as"
                        + " its column's tensor_shape " + shape.toList() + ": it holds " + shape.elements());
            }
            leaves.add(row);
        }
        BroadcastPlan plan = plan(shape);
        Object values = values(leaves, Math.toIntExact(shape.elements()));
        Object output = fill(plan.copyProgram(0), values);
        return nest(output, plan.output(), 0, 0);
    }

    /** The shape of nested arrays, checked to be rectangular; their innermost arrays in order go to {@code leaves}. */
    private Shape nestedShape(ArrayData row, List<ArrayData> leaves) {
        long[] dims = new long[depth];
        collect(row, 0, dims, leaves, new boolean[depth]);
        return Shape.of(dims);
    }

    private void collect(ArrayData array, int level, long[] dims, List<ArrayData> leaves, boolean[] seen) {
        if (!seen[level]) {
            dims[level] = array.numElements();
            seen[level] = true;
        } else if (dims[level] != array.numElements()) {
            throw new InvalidRequestException("Cannot broadcast a ragged row: dim " + level + " has " + dims[level]
                    + " values in one array and " + array.numElements() + " in another");
        }
        if (level == depth - 1) {
            leaves.add(array);
            return;
        }
        for (int i = 0; i < array.numElements(); i++) {
            if (array.isNullAt(i)) {
                throw new InvalidRequestException("Cannot broadcast a row with a null array at dim " + level);
            }
            collect(array.getArray(i), level + 1, dims, leaves, seen);
        }
    }

    /** The leaves' values in one Java array: primitive when the type is and no value is null. */
    private Object values(List<ArrayData> leaves, int elements) {
        boolean primitive = primitive() && leaves.stream().noneMatch(RowBroadcast::hasNull);
        Object values = primitive ? Array.newInstance(primitiveClass(), elements) : new Object[elements];
        int at = 0;
        for (ArrayData leafValues : leaves) {
            Object part = primitive ? primitiveArray(leafValues) : leafValues.toObjectArray(leaf);
            int length = Array.getLength(part);
            System.arraycopy(part, 0, values, at, length);
            at += length;
        }
        return values;
    }

    private static Object fill(CopyProgram program, Object source) {
        int elements = Math.toIntExact(program.elements());
        Object output = Array.newInstance(source.getClass().getComponentType(), elements);
        program.run(0, elements, new CopySink() {
            @Override
            public void copy(long sourceOffset, long targetOffset, long length) {
                System.arraycopy(source, (int) sourceOffset, output, (int) targetOffset, (int) length);
            }

            @Override
            public void repeat(long targetOffset, long blockLength, long times) {
                long filled = blockLength;
                long total = blockLength * times;
                while (filled < total) {
                    long length = Math.min(filled, total - filled);
                    System.arraycopy(output, (int) targetOffset, output, (int) (targetOffset + filled), (int) length);
                    filled += length;
                }
            }
        });
        return output;
    }

    /** Values {@code [from, ...)} of {@code shape} from dim {@code level} on, as nested arrays. */
    private static ArrayData nest(Object values, Shape shape, int level, int from) {
        int count = Math.toIntExact(shape.dim(level));
        if (level == shape.rank() - 1) {
            Object slice = Array.newInstance(values.getClass().getComponentType(), count);
            System.arraycopy(values, from, slice, 0, count);
            return arrayData(slice);
        }
        int inner = Math.toIntExact(shape.product(level + 1, shape.rank()));
        Object[] arrays = new Object[count];
        for (int i = 0; i < count; i++) {
            arrays[i] = nest(values, shape, level + 1, from + i * inner);
        }
        return new GenericArrayData(arrays);
    }

    private static ArrayData arrayData(Object slice) {
        if (slice instanceof boolean[] values) {
            return UnsafeArrayData.fromPrimitiveArray(values);
        } else if (slice instanceof byte[] values) {
            return UnsafeArrayData.fromPrimitiveArray(values);
        } else if (slice instanceof short[] values) {
            return UnsafeArrayData.fromPrimitiveArray(values);
        } else if (slice instanceof int[] values) {
            return UnsafeArrayData.fromPrimitiveArray(values);
        } else if (slice instanceof long[] values) {
            return UnsafeArrayData.fromPrimitiveArray(values);
        } else if (slice instanceof float[] values) {
            return UnsafeArrayData.fromPrimitiveArray(values);
        } else if (slice instanceof double[] values) {
            return UnsafeArrayData.fromPrimitiveArray(values);
        }
        return new GenericArrayData((Object[]) slice);
    }

    private boolean primitive() {
        return primitiveClass() != null;
    }

    private Class<?> primitiveClass() {
        return leaf instanceof BooleanType
                ? boolean.class
                : leaf instanceof ByteType
                        ? byte.class
                        : leaf instanceof ShortType
                                ? short.class
                                : leaf instanceof IntegerType
                                        ? int.class
                                        : leaf instanceof LongType
                                                ? long.class
                                                : leaf instanceof FloatType
                                                        ? float.class
                                                        : leaf instanceof DoubleType ? double.class : null;
    }

    private Object primitiveArray(ArrayData values) {
        return leaf instanceof BooleanType
                ? values.toBooleanArray()
                : leaf instanceof ByteType
                        ? values.toByteArray()
                        : leaf instanceof ShortType
                                ? values.toShortArray()
                                : leaf instanceof IntegerType
                                        ? values.toIntArray()
                                        : leaf instanceof LongType
                                                ? values.toLongArray()
                                                : leaf instanceof FloatType
                                                        ? values.toFloatArray()
                                                        : values.toDoubleArray();
    }

    private static boolean hasNull(ArrayData values) {
        for (int i = 0; i < values.numElements(); i++) {
            if (values.isNullAt(i)) {
                return true;
            }
        }
        return false;
    }
}
