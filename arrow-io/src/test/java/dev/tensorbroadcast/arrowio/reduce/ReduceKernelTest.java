package dev.tensorbroadcast.arrowio.reduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.ReducePlan;
import dev.tensorbroadcast.planner.Shape;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class ReduceKernelTest {
    private static ReducePlan plan(String input, long... target) {
        return ReducePlan.of(
                BroadcastRequest.builder(Dialect.NUMPY)
                        .input(Shape.parse(input))
                        .target(target)
                        .build()
                        .plan(),
                0);
    }

    private static ByteBuffer little(int bytes) {
        return ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static SourceTensor floats(Shape shape, float... values) {
        ByteBuffer buffer = little(4 * values.length);
        for (float value : values) {
            buffer.putFloat(value);
        }
        return SourceTensor.fixedWidth(DType.FLOAT32, shape, buffer.array(), null);
    }

    private static SourceTensor longs(DType dtype, Shape shape, long... values) {
        int width = dtype.byteWidth();
        ByteBuffer buffer = little(width * values.length);
        for (long value : values) {
            switch (width) {
                case 1 -> buffer.put((byte) value);
                case 2 -> buffer.putShort((short) value);
                case 4 -> buffer.putInt((int) value);
                default -> buffer.putLong(value);
            }
        }
        return SourceTensor.fixedWidth(dtype, shape, buffer.array(), null);
    }

    private static float[] floatsOf(SourceTensor tensor) {
        ByteBuffer buffer = ByteBuffer.wrap(tensor.values()).order(ByteOrder.LITTLE_ENDIAN);
        float[] values = new float[(int) tensor.elements()];
        for (int i = 0; i < values.length; i++) {
            values[i] = buffer.getFloat();
        }
        return values;
    }

    private static SourceTensor reduceWhole(ReducePlan plan, SourceTensor gradient) {
        ReduceKernel kernel = ReduceKernel.create(gradient.dtype(), plan.input().elements());
        kernel.accumulate(gradient, 0, plan.program(), 0, gradient.elements(), 0);
        return kernel.result(plan.input());
    }

    @Test
    void sumsRowsInFloat64AndWritesFloat32() {
        ReducePlan plan = plan("[1,3]", 2, 3);
        SourceTensor sum = reduceWhole(plan, floats(Shape.of(2, 3), 1, 2, 3, 10, 20, 30));
        assertThat(sum.shape()).isEqualTo(Shape.of(1, 3));
        assertThat(floatsOf(sum)).containsExactly(11, 22, 33);
        // 2^24 + 1 is lost in float32 arithmetic but not in the float64 sum: 2^24 + 1 + 1 = 2^24 + 2 is exact
        ReducePlan column = plan("[1]", 3);
        assertThat(floatsOf(reduceWhole(column, floats(Shape.of(3), 16777216f, 1f, 1f))))
                .containsExactly(16777218f);
    }

    @Test
    void chunksAndPartialsGiveTheSameSumAsOnePass() {
        ReducePlan plan = plan("[4,1]", 3, 4, 5);
        float[] values = new float[60];
        for (int i = 0; i < values.length; i++) {
            values[i] = i % 7;
        }
        SourceTensor gradient = floats(Shape.of(3, 4, 5), values);
        SourceTensor whole = reduceWhole(plan, gradient);
        ReduceKernel first = ReduceKernel.create(DType.FLOAT32, 4);
        ReduceKernel second = ReduceKernel.create(DType.FLOAT32, 4);
        // the second partial holds only the gradient's last 25 elements, from element 35 on
        byte[] tail = java.util.Arrays.copyOfRange(gradient.values(), 4 * 35, 4 * 60);
        first.accumulate(gradient, 0, plan.program(), 0, 35, 0);
        second.accumulate(
                SourceTensor.fixedWidth(DType.FLOAT32, Shape.of(25), tail, null), 35, plan.program(), 35, 60, 0);
        first.merge(second);
        assertThat(first.result(plan.input()).values()).isEqualTo(whole.values());
        // numpy: np.arange(60) % 7 as (3,4,5), summed over axes 0 and 2
        assertThat(floatsOf(whole)).containsExactly(36, 48, 53, 37);
    }

    /**
     * Rows added into one run of sums go to the kernel as one call per range (a chunk of rows), summed row by row:
     * the bits are those of adding each gradient element into its sum in output order, for every float dtype, whole
     * and from ranges that start and end inside rows.
     */
    @Test
    void rowsInOneCallAddInOutputOrder() {
        java.util.Random random = new java.util.Random(28);
        for (DType dtype : new DType[] {DType.FLOAT32, DType.FLOAT64, DType.COMPLEX64, DType.COMPLEX128}) {
            int lanes = dtype == DType.COMPLEX64 || dtype == DType.COMPLEX128 ? 2 : 1;
            int width = dtype.byteWidth() / lanes;
            for (ReducePlan plan : new ReducePlan[] {plan("[1,7]", 9, 7), plan("[5,1,3]", 5, 4, 3)}) {
                long elements = plan.output().elements();
                ByteBuffer bytes = little((int) elements * dtype.byteWidth());
                double[] values = new double[(int) elements * lanes];
                for (int i = 0; i < values.length; i++) {
                    // values whose float64 sum depends on the order of the adds
                    double value = random.nextGaussian() * Math.pow(2, random.nextInt(40) - 20);
                    values[i] = width == 4 ? (float) value : value;
                    if (width == 4) {
                        bytes.putFloat((float) value);
                    } else {
                        bytes.putDouble(value);
                    }
                }
                SourceTensor gradient = SourceTensor.fixedWidth(dtype, plan.output(), bytes.array(), null);
                for (long[] range : new long[][] {{0, elements}, {2, elements - 3}, {elements / 2, elements / 2 + 1}}) {
                    double[] expected = new double[(int) plan.input().elements() * lanes];
                    for (long c = range[0]; c < range[1]; c++) {
                        long source = plan.program().sourceIndex(c);
                        for (int lane = 0; lane < lanes; lane++) {
                            expected[(int) source * lanes + lane] += values[(int) c * lanes + lane];
                        }
                    }
                    ReduceKernel kernel =
                            ReduceKernel.create(dtype, plan.input().elements());
                    kernel.accumulate(gradient, 0, plan.program(), range[0], range[1], 0);
                    ByteBuffer result = ByteBuffer.wrap(
                                    kernel.result(plan.input()).values())
                            .order(ByteOrder.LITTLE_ENDIAN);
                    for (int i = 0; i < expected.length; i++) {
                        if (width == 4) {
                            assertThat(result.getFloat())
                                    .as("%s %s element %d", dtype, plan, i)
                                    .isEqualTo((float) expected[i]);
                        } else {
                            assertThat(Double.doubleToRawLongBits(result.getDouble()))
                                    .as("%s %s element %d", dtype, plan, i)
                                    .isEqualTo(Double.doubleToRawLongBits(expected[i]));
                        }
                    }
                }
            }
        }
    }

    private static final DType[] NUMERIC = {
        DType.FLOAT16,
        DType.BFLOAT16,
        DType.FLOAT32,
        DType.FLOAT64,
        DType.COMPLEX64,
        DType.COMPLEX128,
        DType.INT8,
        DType.INT16,
        DType.INT32,
        DType.INT64,
        DType.UINT8,
        DType.UINT16,
        DType.UINT32,
        DType.UINT64
    };

    /** A gradient of {@code dtype} whose float sums depend on the order of the adds (integers: small values). */
    private static SourceTensor randomGradient(DType dtype, Shape shape, java.util.Random random) {
        int lanes = dtype == DType.COMPLEX64 || dtype == DType.COMPLEX128 ? 2 : 1;
        long count = shape.elements() * lanes;
        ByteBuffer bytes = little((int) shape.elements() * dtype.byteWidth());
        for (long i = 0; i < count; i++) {
            double value = random.nextGaussian() * Math.pow(2, random.nextInt(30) - 15);
            long integer = random.nextInt(21) - 10;
            switch (dtype) {
                case FLOAT16 -> bytes.putShort(HalfFloats.doubleToHalf(value / 64));
                case BFLOAT16 -> bytes.putShort(HalfFloats.doubleToBfloat16(value));
                case FLOAT32, COMPLEX64 -> bytes.putFloat((float) value);
                case FLOAT64, COMPLEX128 -> bytes.putDouble(value);
                case INT8 -> bytes.put((byte) integer);
                case UINT8 -> bytes.put((byte) Math.abs(integer));
                case INT16, UINT16 -> bytes.putShort((short) (dtype == DType.INT16 ? integer : Math.abs(integer)));
                case INT32, UINT32 -> bytes.putInt((int) (dtype == DType.INT32 ? integer : Math.abs(integer)));
                default -> bytes.putLong(dtype == DType.INT64 ? integer : Math.abs(integer));
            }
        }
        return SourceTensor.fixedWidth(dtype, shape, bytes.array(), null);
    }

    /** Gradient elements {@code [from, to)} as a chunk of their own, as a task reads them. */
    private static SourceTensor chunk(SourceTensor gradient, long from, long to) {
        int width = gradient.dtype().byteWidth();
        byte[] bytes = java.util.Arrays.copyOfRange(gradient.values(), (int) from * width, (int) to * width);
        return SourceTensor.fixedWidth(gradient.dtype(), Shape.of(to - from), bytes, null);
    }

    /**
     * For every dtype the kernel sums, rows summed and rows kept: chunks that split rows (a partial row at both ends
     * of a chunk), and the whole gradient in one call, give the bits of adding one element at a time in output order.
     */
    @Test
    void chunksThatSplitRowsGiveTheBitsOfOneElementAtATime() {
        java.util.Random random = new java.util.Random(2811);
        for (DType dtype : NUMERIC) {
            for (ReducePlan plan : new ReducePlan[] {plan("[1,7]", 9, 7), plan("[5,1,3]", 5, 4, 3)}) {
                SourceTensor gradient = randomGradient(dtype, plan.output(), random);
                long elements = plan.output().elements();
                ReduceKernel single = ReduceKernel.create(dtype, plan.input().elements());
                for (long c = 0; c < elements; c++) {
                    single.accumulate(gradient, 0, plan.program(), c, c + 1, 0);
                }
                byte[] expected = single.result(plan.input()).values();
                ReduceKernel whole = ReduceKernel.create(dtype, plan.input().elements());
                whole.accumulate(gradient, 0, plan.program(), 0, elements, 0);
                assertThat(whole.result(plan.input()).values())
                        .as("%s %s whole", dtype, plan)
                        .isEqualTo(expected);
                for (long size : new long[] {5, 11, 16}) {
                    ReduceKernel chunked =
                            ReduceKernel.create(dtype, plan.input().elements());
                    for (long from = 0; from < elements; from += size) {
                        long to = Math.min(elements, from + size);
                        chunked.accumulate(chunk(gradient, from, to), from, plan.program(), from, to, 0);
                    }
                    assertThat(chunked.result(plan.input()).values())
                            .as("%s %s chunks of %d", dtype, plan, size)
                            .isEqualTo(expected);
                }
            }
        }
    }

    /**
     * Rows kept a block at a time through one partial: each block's sums land at their offset in the caller's bytes
     * (nothing outside them written) and the partial starts the next block from zero, so the bytes are those of one
     * partial over all the rows, for every dtype, with a last block shorter than the others.
     */
    @Test
    void blocksTakenFromOnePartialGiveTheBitsOfOnePartial() {
        java.util.Random random = new java.util.Random(2812);
        ReducePlan plan = plan("[7,1,3]", 7, 4, 3);
        for (DType dtype : NUMERIC) {
            SourceTensor gradient = randomGradient(dtype, plan.output(), random);
            byte[] expected = reduceWhole(plan, gradient).values();
            int width = dtype.byteWidth();
            int offset = 5;
            byte[] into = new byte[offset + expected.length + 3];
            java.util.Arrays.fill(into, (byte) 0x5a);
            // blocks of 3 result rows (9 sums, 36 gradient elements): 3 + 3 + 1 rows
            ReduceKernel block = ReduceKernel.create(dtype, 9);
            for (long row = 0; row < 7; row += 3) {
                long end = Math.min(7, row + 3);
                block.accumulate(
                        chunk(gradient, 12 * row, 12 * end), 12 * row, plan.program(), 12 * row, 12 * end, 3 * row);
                block.takeResult((int) (3 * (end - row)), into, offset + (int) (3 * row) * width);
            }
            assertThat(java.util.Arrays.copyOfRange(into, offset, offset + expected.length))
                    .as("%s", dtype)
                    .isEqualTo(expected);
            assertThat(java.util.Arrays.copyOfRange(into, 0, offset)).containsOnly((byte) 0x5a);
            assertThat(java.util.Arrays.copyOfRange(into, offset + expected.length, into.length))
                    .containsOnly((byte) 0x5a);
            assertThat(block.result(Shape.of(9)).values())
                    .as("%s: taken sums are zero again", dtype)
                    .containsOnly((byte) 0);
        }
        ReduceKernel kernel = ReduceKernel.create(DType.FLOAT32, 4);
        assertThatThrownBy(() -> kernel.takeResult(5, new byte[64], 0))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("5 sums asked of a partial of 4");
        assertThatThrownBy(() -> kernel.takeResult(4, new byte[16], 4)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void aSliceOfTheResultStartsAtItsOrigin() {
        ReducePlan plan = plan("[3,1,2]", 3, 2, 2);
        SourceTensor gradient = floats(Shape.of(3, 2, 2), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
        ReduceKernel rows = ReduceKernel.create(DType.FLOAT32, 4);
        // result rows 1 and 2 are result elements [2, 6); they read gradient elements [4, 12)
        rows.accumulate(gradient, 0, plan.program(), 4, 12, 2);
        assertThat(floatsOf(rows.result(Shape.of(2, 1, 2)))).containsExactly(12, 14, 20, 22);
    }

    @Test
    void integersAreExactAndOverflowIsAnError() {
        ReducePlan plan = plan("[1]", 3);
        SourceTensor big = longs(DType.INT64, Shape.of(3), 1L << 60, 1L << 60, 1);
        assertThat(ByteBuffer.wrap(reduceWhole(plan, big).values())
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .getLong())
                .isEqualTo((1L << 61) + 1);
        assertThatThrownBy(() -> reduceWhole(plan, longs(DType.INT64, Shape.of(3), Long.MAX_VALUE, 1, 0)))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot reduce a int64 gradient: the sum at input element 0 leaves 64 bits; reduce a copy"
                        + " in a float type");
        assertThatThrownBy(() -> reduceWhole(plan, longs(DType.INT8, Shape.of(3), 100, 100, 100)))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot reduce a int8 gradient: the sum at input element 0 is 300, outside int8's range"
                        + " [-128, 127]; reduce a copy in a wider type");
        assertThat(reduceWhole(plan, longs(DType.INT8, Shape.of(3), 100, -100, -128))
                        .values())
                .containsExactly((byte) -128);
        // rows added run by run (the other loop) overflow the same way, naming the element
        ReducePlan rows = plan("[1,2]", 2, 2);
        assertThatThrownBy(() -> reduceWhole(rows, longs(DType.INT64, Shape.of(2, 2), 0, Long.MIN_VALUE, 0, -1)))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot reduce a int64 gradient: the sum at input element 1 leaves 64 bits; reduce a copy"
                        + " in a float type");
        ByteBuffer int32 = ByteBuffer.wrap(reduceWhole(
                                plan("[1,2]", 3, 2),
                                longs(
                                        DType.INT32,
                                        Shape.of(3, 2),
                                        Integer.MAX_VALUE,
                                        -5,
                                        Integer.MAX_VALUE,
                                        7,
                                        -Integer.MAX_VALUE,
                                        1))
                        .values())
                .order(ByteOrder.LITTLE_ENDIAN);
        assertThat(int32.getInt()).isEqualTo(Integer.MAX_VALUE);
        assertThat(int32.getInt()).isEqualTo(3);
    }

    @Test
    void unsignedIntegersUseTheirWholeRange() {
        ReducePlan plan = plan("[1]", 2);
        assertThat(reduceWhole(plan, longs(DType.UINT8, Shape.of(2), 200, 55)).values())
                .containsExactly((byte) 255);
        SourceTensor halves = longs(DType.UINT64, Shape.of(2), Long.MIN_VALUE, Long.MAX_VALUE);
        assertThat(ByteBuffer.wrap(reduceWhole(plan, halves).values())
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .getLong())
                .isEqualTo(-1L);
        assertThatThrownBy(() -> reduceWhole(plan, longs(DType.UINT64, Shape.of(2), -1L, 1)))
                .hasMessage("Cannot reduce a uint64 gradient: the sum at input element 0 leaves 64 bits; reduce a copy"
                        + " in a float type");
    }

    @Test
    void complexPartsSumSeparately() {
        ReducePlan plan = plan("[1]", 2);
        ByteBuffer buffer = little(16).putFloat(1).putFloat(-2).putFloat(3).putFloat(5);
        SourceTensor gradient = SourceTensor.fixedWidth(DType.COMPLEX64, Shape.of(2), buffer.array(), null);
        SourceTensor sum = reduceWhole(plan, gradient);
        ByteBuffer result = ByteBuffer.wrap(sum.values()).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(result.getFloat()).isEqualTo(4);
        assertThat(result.getFloat()).isEqualTo(3);
        // an inner broadcast sums runs of complex numbers into one
        ReducePlan inner = plan("[2,1]", 2, 2);
        ByteBuffer four = little(64)
                .putDouble(1)
                .putDouble(1)
                .putDouble(2)
                .putDouble(2)
                .putDouble(3)
                .putDouble(0)
                .putDouble(4)
                .putDouble(-1);
        SourceTensor rows =
                reduceWhole(inner, SourceTensor.fixedWidth(DType.COMPLEX128, Shape.of(2, 2), four.array(), null));
        ByteBuffer pairs = ByteBuffer.wrap(rows.values()).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(new double[] {pairs.getDouble(), pairs.getDouble(), pairs.getDouble(), pairs.getDouble()})
                .containsExactly(3, 3, 7, -1);
    }

    @Test
    void halfFloatsRoundOnceAtTheEnd() {
        ReducePlan plan = plan("[1]", 4);
        ByteBuffer buffer = little(8);
        // 2048 + 1 + 1 + 1: float16 can't hold 2049, so summing in float16 would stay at 2048; float64 gets 2051,
        // which rounds (ties to even) to 2052
        buffer.putShort(HalfFloats.doubleToHalf(2048))
                .putShort(HalfFloats.doubleToHalf(1))
                .putShort(HalfFloats.doubleToHalf(1))
                .putShort(HalfFloats.doubleToHalf(1));
        SourceTensor sum = reduceWhole(plan, SourceTensor.fixedWidth(DType.FLOAT16, Shape.of(4), buffer.array(), null));
        assertThat(HalfFloats.halfToDouble(ByteBuffer.wrap(sum.values())
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .getShort()))
                .isEqualTo(2052);
    }

    @Test
    void halfAndBfloat16ConversionsRoundTripEveryValue() {
        for (int bits = 0; bits < 0x10000; bits++) {
            short half = (short) bits;
            double value = HalfFloats.halfToDouble(half);
            if (!Double.isNaN(value)) {
                assertThat(HalfFloats.doubleToHalf(value)).isEqualTo(half);
            }
            double brain = HalfFloats.bfloat16ToDouble(half);
            if (!Double.isNaN(brain)) {
                assertThat(HalfFloats.doubleToBfloat16(brain)).isEqualTo(half);
            }
        }
        assertThat(HalfFloats.doubleToHalf(2049)).isEqualTo(HalfFloats.doubleToHalf(2048));
        assertThat(HalfFloats.doubleToHalf(65519.99)).isEqualTo((short) 0x7bff);
        assertThat(HalfFloats.doubleToHalf(65520)).isEqualTo((short) 0x7c00);
        assertThat(HalfFloats.doubleToHalf(0x1p-25)).isEqualTo((short) 0);
        assertThat(HalfFloats.doubleToHalf(0x1.8p-25)).isEqualTo((short) 1);
        // 1 + 2^-8 is halfway between two bfloat16 values; ties go to the even one, 1
        assertThat(HalfFloats.doubleToBfloat16(1 + 0x1p-8)).isEqualTo((short) 0x3f80);
        assertThat(HalfFloats.doubleToBfloat16(1 + 0x1p-8 + 0x1p-30)).isEqualTo((short) 0x3f81);
    }

    @Test
    void refusesBoolsAndNulls() {
        assertThatThrownBy(() -> ReduceKernel.create(DType.BOOL, 3))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot reduce a bool gradient: a sum needs a numeric dtype (an integer, float or complex"
                        + " type)");
        ReducePlan plan = plan("[1]", 2);
        SourceTensor withNull = SourceTensor.fixedWidth(DType.FLOAT32, Shape.of(2), new byte[8], new byte[] {1});
        assertThatThrownBy(() -> reduceWhole(plan, withNull))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot reduce a float32 gradient: it has null values; a sum needs every value (fill the"
                        + " nulls first)");
    }

    @Test
    void mergesOnlyMatchingPartials() {
        ReduceKernel floats = ReduceKernel.create(DType.FLOAT32, 2);
        assertThatThrownBy(() -> floats.merge(ReduceKernel.create(DType.FLOAT64, 2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("cannot merge a float64 partial of 2 elements into a float32 partial of 2");
    }
}
