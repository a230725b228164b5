package dev.tensorbroadcast.job.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.InvalidRequestException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
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
    void sparksLayoutAndOtherArraysGiveTheSameLittleEndianBytes() throws IOException {
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
    void rowsAppendInOrderToTheFileAndTheBufferStaysItsSize() throws IOException {
        // rows of 100,000 values (400,000 bytes), in Spark's layout and not: a row straddles the buffer's end, and 21
        // rows are eight buffers
        float[] row = new float[100_000];
        int rows = 21;
        ByteBuffer expected = ByteBuffer.allocate(rows * row.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        try (SpillFile spill = SpillFile.create()) {
            RowValues values = new RowValues(DType.FLOAT32, spill.channel());
            for (int r = 0; r < rows; r++) {
                for (int i = 0; i < row.length; i++) {
                    row[i] = r * 1_000_000 + i;
                    expected.putFloat(row[i]);
                }
                values.append(r % 2 == 0 ? UnsafeArrayData.fromPrimitiveArray(row) : boxed(row), r);
                // what is not yet in the file is at most the buffer
                assertThat(values.bytes() - spill.channel().size()).isBetween(0L, (long) RowValues.BUFFER_BYTES);
            }
            assertThat(values.bytes()).isEqualTo(expected.capacity());
            values.finish();
            assertThat(Files.readAllBytes(spill.path())).isEqualTo(expected.array());
        }
    }

    @Test
    void closingTheSpillFileDeletesIt() throws IOException {
        SpillFile spill = SpillFile.create();
        new RowValues(DType.INT8, spill.channel()).append(UnsafeArrayData.fromPrimitiveArray(new byte[] {1, 2}), 0);

        spill.close();

        assertThat(spill.path()).doesNotExist();
        spill.close();
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
            assertThatThrownBy(() -> gathered(DType.FLOAT32, tensor))
                    .isInstanceOf(InvalidRequestException.class)
                    .hasMessage("Cannot write a tensorbroadcast dataset: row 41 holds a null value; only rows without"
                            + " nulls are written");
        }
    }

    /** The bytes of {@code tensor} gathered as row 41, as the spill file holds them. */
    private static byte[] gathered(DType dtype, ArrayData tensor) throws IOException {
        try (SpillFile spill = SpillFile.create()) {
            RowValues values = new RowValues(dtype, spill.channel());
            values.append(tensor, 41);
            values.finish();
            return Files.readAllBytes(spill.path());
        }
    }

    private static void assertSameBytes(DType dtype, UnsafeArrayData unsafe, ArrayData generic, byte[] expected)
            throws IOException {
        assertThat(gathered(dtype, unsafe)).as(dtype.typeName()).isEqualTo(expected);
        assertThat(gathered(dtype, generic)).as(dtype.typeName()).isEqualTo(expected);
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
