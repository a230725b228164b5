package dev.tensorbroadcast.job.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.InvalidRequestException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

class RowValuesTest {
    @Test
    void sparksLayoutAndOtherArraysGiveTheSameLittleEndianBytes() {
        // 70 values: the null bits take two words, the second one partly used
        int count = 70;
        float[] floats = new float[count];
        double[] doubles = new double[count];
        long[] longs = new long[count];
        int[] ints = new int[count];
        short[] shorts = new short[count];
        byte[] bytes = new byte[count];
        for (int i = 0; i < count; i++) {
            floats[i] = i * 1.5f - 7;
            doubles[i] = i * -2.25 + 1e300;
            longs[i] = Long.MIN_VALUE + i * 977L;
            ints[i] = i * 65_537 - 3;
            shorts[i] = (short) (i * 1031);
            bytes[i] = (byte) (i * 7);
        }
        assertSameBytes(
                DType.FLOAT32,
                UnsafeArrayData.fromPrimitiveArray(floats),
                boxed(floats),
                le(count, 4, (b, i) -> b.putFloat(floats[i])));
        assertSameBytes(
                DType.FLOAT64,
                UnsafeArrayData.fromPrimitiveArray(doubles),
                boxed(doubles),
                le(count, 8, (b, i) -> b.putDouble(doubles[i])));
        assertSameBytes(
                DType.INT64,
                UnsafeArrayData.fromPrimitiveArray(longs),
                boxed(longs),
                le(count, 8, (b, i) -> b.putLong(longs[i])));
        assertSameBytes(
                DType.INT32,
                UnsafeArrayData.fromPrimitiveArray(ints),
                boxed(ints),
                le(count, 4, (b, i) -> b.putInt(ints[i])));
        assertSameBytes(
                DType.INT16,
                UnsafeArrayData.fromPrimitiveArray(shorts),
                boxed(shorts),
                le(count, 2, (b, i) -> b.putShort(shorts[i])));
        assertSameBytes(DType.INT8, UnsafeArrayData.fromPrimitiveArray(bytes), boxed(bytes), bytes.clone());
    }

    @Test
    void rowsAppendInOrderAndGrowPastTheFirstBuffer() {
        RowValues values = new RowValues(DType.FLOAT32);
        float[] row = new float[4096];
        ByteBuffer expected = ByteBuffer.allocate(8 * 4096 * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int r = 0; r < 8; r++) {
            for (int i = 0; i < row.length; i++) {
                row[i] = r * 10_000 + i;
                expected.putFloat(row[i]);
            }
            values.append(UnsafeArrayData.fromPrimitiveArray(row), r);
        }
        assertThat(values.toByteArray()).isEqualTo(expected.array());
        values.reset();
        assertThat(values.toByteArray()).isEmpty();
    }

    @Test
    void aNullValueIsRefusedInOneLineNamingTheRow() {
        Object[] withNull = {1.0f, 2.0f, null};
        ArrayData generic = new GenericArrayData(withNull);
        // the same array in Spark's layout: its null bit is set in the second word for a value past 64
        Object[] late = new Object[70];
        for (int i = 0; i < late.length; i++) {
            late[i] = i == 66 ? null : (float) i;
        }
        ArrayData unsafe = unsafeFloats(late);
        for (ArrayData tensor : new ArrayData[] {generic, unsafe}) {
            assertThatThrownBy(() -> new RowValues(DType.FLOAT32).append(tensor, 41))
                    .isInstanceOf(InvalidRequestException.class)
                    .hasMessage("Cannot write a tensorbroadcast dataset: row 41 holds a null value; only rows without"
                            + " nulls are written");
        }
    }

    private static void assertSameBytes(DType dtype, UnsafeArrayData unsafe, ArrayData generic, byte[] expected) {
        RowValues fromUnsafe = new RowValues(dtype);
        fromUnsafe.append(unsafe, 0);
        RowValues fromGeneric = new RowValues(dtype);
        fromGeneric.append(generic, 0);
        assertThat(fromUnsafe.toByteArray()).as(dtype.typeName()).isEqualTo(expected);
        assertThat(fromGeneric.toByteArray()).as(dtype.typeName()).isEqualTo(expected);
    }

    private interface Put {
        void put(ByteBuffer buffer, int index);
    }

    private static byte[] le(int count, int width, Put put) {
        ByteBuffer buffer = ByteBuffer.allocate(count * width).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < count; i++) {
            put.put(buffer, i);
        }
        return buffer.array();
    }

    private static ArrayData boxed(Object primitives) {
        int length = java.lang.reflect.Array.getLength(primitives);
        Object[] values = new Object[length];
        for (int i = 0; i < length; i++) {
            values[i] = java.lang.reflect.Array.get(primitives, i);
        }
        return new GenericArrayData(values);
    }

    /** An array with nulls in Spark's layout, as a projection of a row makes it. */
    private static ArrayData unsafeFloats(Object[] values) {
        StructType schema = new StructType().add("tensor", DataTypes.createArrayType(DataTypes.FloatType, true));
        InternalRow row = new GenericInternalRow(new Object[] {new GenericArrayData(values)});
        ArrayData array = UnsafeProjection.create(schema).apply(row).getArray(0);
        assertThat(array).isInstanceOf(UnsafeArrayData.class);
        return array.copy();
    }
}
