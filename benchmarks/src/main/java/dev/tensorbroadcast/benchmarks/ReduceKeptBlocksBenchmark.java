package dev.tensorbroadcast.benchmarks;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.reduce.ReduceKernel;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.InputBroadcast;
import dev.tensorbroadcast.planner.Shape;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A rows-kept task's sums, {@code [N,8,64] -> [N,1,64]} float32, 64 MiB of gradient into its 8 MiB result, a block of
 * 1024 result rows (512 KiB of float64 sums) at a time, two ways: a fresh partial per block whose result is copied into
 * the task's bytes (before issue 28's third pass), and one partial whose sums each block rounds straight into them.
 * Each invocation allocates the task's result, as a task does. The gradient is on the heap, allocated in setup.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx2g"})
public class ReduceKeptBlocksBenchmark {
    private static final int ROWS = 32768;
    private static final int ROW_ELEMENTS = 64;
    private static final int BLOCK_ROWS = 1024;

    private SourceTensor gradient;
    private CopyProgram program;

    @Setup(Level.Trial)
    public void setUp() {
        Shape output = Shape.of(ROWS, 8, ROW_ELEMENTS);
        program = CopyProgram.of(
                output,
                InputBroadcast.rightAligned(Shape.of(ROWS, 1, ROW_ELEMENTS), 3).sourceStrides(output));
        byte[] values = new byte[Math.toIntExact(output.elements() * 4)];
        Random random = new Random(1);
        random.nextBytes(values);
        // floats with a small exponent: no NaN or infinity slows the adds
        for (int i = 3; i < values.length; i += 4) {
            values[i] = (byte) (values[i] & 0x3f);
        }
        gradient = SourceTensor.fixedWidth(DType.FLOAT32, output, values, null);
    }

    private long gradientElements(int rows) {
        return (long) rows * 8 * ROW_ELEMENTS;
    }

    @Benchmark
    public byte[] freshPartialPerBlock() {
        byte[] result = new byte[ROWS * ROW_ELEMENTS * 4];
        for (int row = 0; row < ROWS; row += BLOCK_ROWS) {
            ReduceKernel partial = ReduceKernel.create(DType.FLOAT32, (long) BLOCK_ROWS * ROW_ELEMENTS);
            partial.accumulate(
                    gradient,
                    0,
                    program,
                    gradientElements(row),
                    gradientElements(row + BLOCK_ROWS),
                    (long) row * ROW_ELEMENTS);
            byte[] block =
                    partial.result(Shape.of((long) BLOCK_ROWS * ROW_ELEMENTS)).values();
            System.arraycopy(block, 0, result, row * ROW_ELEMENTS * 4, block.length);
        }
        return result;
    }

    @Benchmark
    public byte[] onePartialTaken() {
        byte[] result = new byte[ROWS * ROW_ELEMENTS * 4];
        ReduceKernel partial = ReduceKernel.create(DType.FLOAT32, (long) BLOCK_ROWS * ROW_ELEMENTS);
        for (int row = 0; row < ROWS; row += BLOCK_ROWS) {
            partial.accumulate(
                    gradient,
                    0,
                    program,
                    gradientElements(row),
                    gradientElements(row + BLOCK_ROWS),
                    (long) row * ROW_ELEMENTS);
            partial.takeResult(BLOCK_ROWS * ROW_ELEMENTS, result, row * ROW_ELEMENTS * 4);
        }
        return result;
    }
}
