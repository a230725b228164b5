package dev.tensorbroadcast.arrowio;

import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.InputBroadcast;
import dev.tensorbroadcast.planner.Shape;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/** Seeded random source tensors and broadcasts for tests, here and (through the test jar) in the job module. */
public final class RandomTensors {
    private static final String[] PIECES = {"a", "bc", "é", "漢字", "😀", "", "xyz", "ß", "Ω", "tensor"};

    private RandomTensors() {}

    /** Random values; with {@code nulls}, about one element in four is null, at random. */
    public static SourceTensor source(Random random, DType dtype, Shape shape, boolean nulls) {
        int elements = (int) shape.elements();
        byte[] validity = null;
        if (nulls) {
            validity = new byte[(elements + 7) / 8];
            for (int i = 0; i < elements; i++) {
                if (random.nextInt(4) != 0) {
                    validity[i >>> 3] |= (byte) (1 << (i & 7));
                }
            }
        }
        return source(random, dtype, shape, validity);
    }

    /** Random values with the given validity bitmap (null: no nulls). */
    public static SourceTensor source(Random random, DType dtype, Shape shape, byte[] validity) {
        int elements = (int) shape.elements();
        if (dtype == DType.STRING) {
            int[] offsets = new int[elements + 1];
            ByteArrayOutputStream utf8 = new ByteArrayOutputStream();
            for (int i = 0; i < elements; i++) {
                StringBuilder text = new StringBuilder();
                for (int piece = random.nextInt(4); piece > 0; piece--) {
                    text.append(PIECES[random.nextInt(PIECES.length)]);
                }
                utf8.writeBytes(text.toString().getBytes(StandardCharsets.UTF_8));
                offsets[i + 1] = utf8.size();
            }
            return SourceTensor.strings(shape, offsets, utf8.toByteArray(), validity);
        }
        byte[] values = new byte[dtype == DType.BOOL ? (elements + 7) / 8 : elements * dtype.byteWidth()];
        random.nextBytes(values);
        if (dtype == DType.BOOL && elements % 8 != 0) {
            // Arrow leaves padding bits unspecified; keep them zero so nothing can depend on them
            values[values.length - 1] &= (byte) ((1 << (elements % 8)) - 1);
        }
        return SourceTensor.fixedWidth(dtype, shape, values, validity);
    }

    /** A random numpy-style broadcast: an output of rank 1..4 and an input with some dims 1 or dropped. */
    public static Shape[] broadcast(Random random, int maxDim) {
        Shape[] shapes;
        do {
            shapes = anyBroadcast(random, maxDim);
        } while (shapes[1].elements() > 100_000);
        return shapes;
    }

    private static Shape[] anyBroadcast(Random random, int maxDim) {
        int rank = 1 + random.nextInt(4);
        long[] output = new long[rank];
        for (int i = 0; i < rank; i++) {
            output[i] = 1 + random.nextInt(random.nextInt(4) == 0 ? maxDim * 4 : maxDim);
        }
        int inputRank = random.nextInt(rank + 1);
        long[] input = new long[inputRank];
        for (int i = 0; i < inputRank; i++) {
            long dim = output[rank - inputRank + i];
            input[i] = random.nextInt(3) == 0 ? 1 : dim;
        }
        return new Shape[] {Shape.of(input), Shape.of(output)};
    }

    public static CopyProgram program(Shape input, Shape output) {
        return CopyProgram.of(
                output, InputBroadcast.rightAligned(input, output.rank()).sourceStrides(output));
    }

    public static String string(SourceTensor source, long index) {
        int[] offsets = source.offsets();
        return new String(
                source.values(),
                offsets[(int) index],
                offsets[(int) index + 1] - offsets[(int) index],
                StandardCharsets.UTF_8);
    }

    public static boolean bit(byte[] bits, long index) {
        return (bits[(int) (index >>> 3)] & (1 << (index & 7))) != 0;
    }

    /**
     * A kernel whose output [4,1000] repeats source string i along row i, and which fails filling row 3: once the
     * kernel has sized batches for strings of at most 2 bytes, the shared offsets are rewritten so that string 3
     * holds all 8 bytes, more than a batch of one row has room for. Write it in rows of {@code [1000]}, one a batch.
     */
    public static TensorKernel kernelFailingAtRow3() {
        int[] offsets = {0, 2, 4, 6, 8};
        SourceTensor source =
                SourceTensor.strings(Shape.of(4, 1), offsets, "abcdefgh".getBytes(StandardCharsets.UTF_8), null);
        TensorKernel kernel = TensorKernel.of(source, program(Shape.of(4, 1), Shape.of(4, 1000)));
        offsets[1] = 0;
        offsets[2] = 0;
        offsets[3] = 0;
        return kernel;
    }
}
