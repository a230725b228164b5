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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The reduce kernel summing a whole 64 MiB float32 gradient (a task's chunks, back to back) into a fresh partial,
 * against {@code System.arraycopy} of the same bytes between two heap arrays: the gradient is on the heap, where a
 * task holds its chunk. Both touch only arrays allocated and written in setup.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx2g"})
public class ReduceKernelBenchmark {
    @Param({"a_rows_summed_f32", "b_rows_kept_f32", "c_inner_summed_f32", "d_rows_summed_f64", "e_rows_summed_i32"})
    public String scenario;

    private SourceTensor gradient;
    private CopyProgram program;
    private Shape input;
    private byte[] copyTarget;

    @Setup(Level.Trial)
    public void setUp() {
        switch (scenario) {
            case "a_rows_summed_f32" -> prepare(DType.FLOAT32, Shape.of(1, 4096), Shape.of(4096, 4096));
            case "b_rows_kept_f32" -> prepare(DType.FLOAT32, Shape.of(32768, 1, 64), Shape.of(32768, 8, 64));
            case "c_inner_summed_f32" -> prepare(DType.FLOAT32, Shape.of(4096, 1), Shape.of(4096, 4096));
            case "d_rows_summed_f64" -> prepare(DType.FLOAT64, Shape.of(1, 4096), Shape.of(2048, 4096));
            case "e_rows_summed_i32" -> prepare(DType.INT32, Shape.of(1, 4096), Shape.of(4096, 4096));
            default -> throw new IllegalArgumentException("unknown scenario " + scenario);
        }
        copyTarget = new byte[gradient.values().length];
        System.out.println();
        System.out.println("# " + scenario + ": " + program + ", " + gradient.values().length + " bytes");
    }

    private void prepare(DType dtype, Shape in, Shape output) {
        input = in;
        program = CopyProgram.of(
                output, InputBroadcast.rightAligned(in, output.rank()).sourceStrides(output));
        byte[] values = new byte[Math.toIntExact(output.elements() * dtype.byteWidth())];
        Random random = new Random(1);
        if (dtype == DType.INT32) {
            // small integers, so that no sum leaves int32
            for (int i = 0; i < values.length; i += 4) {
                values[i] = (byte) random.nextInt(100);
            }
        } else {
            // floats from random bytes with the exponent kept small: no NaN or infinity slows the adds
            for (int i = 0; i < values.length; i++) {
                values[i] = (byte) random.nextInt(256);
            }
            int width = dtype.byteWidth();
            for (int i = width - 1; i < values.length; i += width) {
                values[i] = (byte) (values[i] & 0x3f);
            }
        }
        gradient = SourceTensor.fixedWidth(dtype, output, values, null);
    }

    @Benchmark
    public ReduceKernel kernel() {
        ReduceKernel partial = ReduceKernel.create(gradient.dtype(), input.elements());
        partial.accumulate(gradient, 0, program, 0, program.elements(), 0);
        return partial;
    }

    @Benchmark
    public byte[] arraycopy() {
        System.arraycopy(gradient.values(), 0, copyTarget, 0, copyTarget.length);
        return copyTarget;
    }
}
