package dev.tensorbroadcast.job.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.arrowio.reduce.HalfFloats;
import dev.tensorbroadcast.arrowio.reduce.ReduceKernel;
import dev.tensorbroadcast.arrowio.source.NpyLayout;
import dev.tensorbroadcast.job.sink.NpyWriter;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.ReducePlan;
import dev.tensorbroadcast.planner.Shape;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A local little-endian {@code .npy} is read into a direct buffer and summed where it is; the bits are those of the
 * heap path (a heap buffer, the kernel's array loops) for every dtype the kernel sums, every kind of reduction, chunks
 * of one row, several rows and a partial last chunk, and ranges of rows that start and end inside the file.
 */
class GradientDirectTest {
    private static final int ROWS = 37;
    private static final Shape SHAPE = Shape.of(ROWS, 5, 3);
    private static final DType[] NUMERIC = {DType.FLOAT16, DType.BFLOAT16, DType.FLOAT32, DType.FLOAT64,
        DType.COMPLEX64, DType.COMPLEX128, DType.INT8, DType.INT16, DType.INT32, DType.INT64, DType.UINT8,
        DType.UINT16, DType.UINT32, DType.UINT64};

    /** One for the whole test: a fresh one per reader parses Hadoop's defaults again. */
    private static final Configuration CONF = new Configuration();

    @TempDir
    Path dir;

    private static ReducePlan plan(String input, DType dtype) {
        return ReducePlan.of(BroadcastRequest.builder(Dialect.NUMPY).input(Shape.parse(input), dtype)
                .target(SHAPE.dims()).build().plan(), 0);
    }

    /** Values whose float64 sums depend on the order of the adds; small integers for the integer dtypes. */
    private static ByteBuffer values(DType dtype, Random random, ByteOrder order) {
        int lanes = dtype == DType.COMPLEX64 || dtype == DType.COMPLEX128 ? 2 : 1;
        ByteBuffer bytes = ByteBuffer.allocate((int) SHAPE.elements() * dtype.byteWidth()).order(order);
        for (long i = 0; i < SHAPE.elements() * lanes; i++) {
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
        return bytes;
    }

    /** A {@code .npy} of {@code values}; its header names the element width only, the layout says the rest. */
    private GradientRows npy(DType dtype, ByteBuffer values, int swapWidth) throws Exception {
        byte[] header = NpyWriter.header("|V" + dtype.byteWidth(), SHAPE);
        byte[] bytes = Arrays.copyOf(header, header.length + values.capacity());
        System.arraycopy(values.array(), 0, bytes, header.length, values.capacity());
        Path file = dir.resolve(dtype + "-" + swapWidth + ".npy");
        Files.write(file, bytes);
        NpyLayout layout = new NpyLayout(dtype, SHAPE, header.length, swapWidth);
        return GradientRows.open(new Gradient.NpyFile(file.toString(), layout), null);
    }

    /** Rows {@code [first, end)} summed through a reader, into a partial of the result rows they reach. */
    private static String reduce(GradientRows rows, ReducePlan plan, long first, long end, long chunkBytes,
            boolean direct) {
        // a result with a row per gradient row holds only the rows summed (as a rows-kept task); others are whole
        long perRow = plan.input().dim(0) == ROWS ? plan.input().elements() / ROWS : 0;
        long elements = perRow == 0 ? plan.input().elements() : perRow * (end - first);
        ReduceKernel partial = ReduceKernel.create(plan.dtype(), elements);
        try (GradientRows.Reader reader = rows.reader(CONF, direct)) {
            assertThat(reader.readsDirect()).isEqualTo(direct);
            long bytesRead = reader.reduce(plan, first, end, partial, perRow * first, chunkBytes);
            assertThat(bytesRead).isEqualTo((end - first) * 15 * plan.dtype().byteWidth());
        }
        try {
            return HexFormat.of().formatHex(partial.result(Shape.of(elements)).values());
        } catch (InvalidRequestException e) {
            // a narrow integer's sum out of its range: the same refusal both ways
            return e.getMessage();
        }
    }

    @Test
    void directChunksGiveTheBitsOfTheHeapPathForEveryDtype() throws Exception {
        Random random = new Random(2815);
        for (DType dtype : NUMERIC) {
            GradientRows rows = npy(dtype, values(dtype, random, ByteOrder.LITTLE_ENDIAN), 0);
            long rowBytes = 15L * dtype.byteWidth();
            for (String input : new String[] {"[1,5,3]", "[37,1,3]", "[37,5,1]", "[1]"}) {
                ReducePlan plan = plan(input, dtype);
                for (long chunkBytes : new long[] {rowBytes, 4 * rowBytes, 7 * rowBytes + 3, rows.chunkBytes(plan)}) {
                    // the whole file, and rows that start and end inside chunks (a partial last chunk either way)
                    for (long[] range : new long[][] {{0, ROWS}, {3, 29}}) {
                        assertThat(reduce(rows, plan, range[0], range[1], chunkBytes, true))
                                .as("%s %s chunks of %d bytes, rows %s", dtype, input, chunkBytes,
                                        Arrays.toString(range))
                                .isEqualTo(reduce(rows, plan, range[0], range[1], chunkBytes, false));
                    }
                }
            }
        }
    }

    /** A big-endian file is swapped in a heap buffer, as before: its sums are the bits of its little-endian twin. */
    @Test
    void aBigEndianFileIsSummedOnTheHeapWithTheBitsOfItsLittleEndianTwin() throws Exception {
        for (DType dtype : new DType[] {DType.FLOAT32, DType.COMPLEX128}) {
            int swapWidth = dtype == DType.COMPLEX128 ? 8 : dtype.byteWidth();
            GradientRows little = npy(dtype, values(dtype, new Random(2816), ByteOrder.LITTLE_ENDIAN), 0);
            GradientRows big = npy(dtype, values(dtype, new Random(2816), ByteOrder.BIG_ENDIAN), swapWidth);
            try (GradientRows.Reader reader = big.reader(CONF)) {
                assertThat(reader.readsDirect()).isFalse();
            }
            try (GradientRows.Reader reader = little.reader(CONF)) {
                assertThat(reader.readsDirect()).as("the default for a local little-endian file").isTrue();
            }
            ReducePlan plan = plan("[1,5,3]", dtype);
            long chunkBytes = 4 * 15L * dtype.byteWidth();
            assertThat(reduce(big, plan, 0, ROWS, chunkBytes, false)).as("%s", dtype)
                    .isEqualTo(reduce(little, plan, 0, ROWS, chunkBytes, true));
        }
    }
}
