package dev.tensorbroadcast.benchmarks;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.InputBroadcast;
import dev.tensorbroadcast.planner.Shape;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
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
import org.openjdk.jmh.annotations.TearDown;

/**
 * The kernel filling a whole broadcast output (64 MiB of values for the float32 cases) into one Arrow buffer,
 * against a memcpy of the same number of bytes between two native buffers. Both touch only memory allocated and
 * written once in setup, so first-touch page faults are not measured.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx2g", "--add-opens=java.base/java.nio=org.apache.arrow.memory.core,ALL-UNNAMED"})
public class KernelBenchmark {
    @Param({
        "a_rows_f32_16KiB",
        "b_runs_f32_1KiB",
        "c_inner_f32_M4096",
        "c_inner_f32_M16",
        "d_inner_bool_M4096",
        "d_rows_bool_4096",
        "d_rows_string_4096"
    })
    public String scenario;

    private BufferAllocator allocator;
    private TensorKernel kernel;
    private long elements;
    private long bytes;
    private ArrowBuf values;
    private ArrowBuf offsets;
    private ArrowBuf copySource;
    private ArrowBuf copyTarget;

    @Setup(Level.Trial)
    public void setUp() {
        allocator = new RootAllocator();
        Random random = new Random(1);
        switch (scenario) {
            case "a_rows_f32_16KiB" -> prepare(random, DType.FLOAT32, Shape.of(1, 4096), Shape.of(4096, 4096));
            case "b_runs_f32_1KiB" -> prepare(random, DType.FLOAT32, Shape.of(64, 1, 256), Shape.of(64, 1024, 256));
            case "c_inner_f32_M4096" -> prepare(random, DType.FLOAT32, Shape.of(4096, 1), Shape.of(4096, 4096));
            case "c_inner_f32_M16" -> prepare(random, DType.FLOAT32, Shape.of(1 << 20, 1), Shape.of(1 << 20, 16));
            case "d_inner_bool_M4096" -> prepare(random, DType.BOOL, Shape.of(4096, 1), Shape.of(4096, 4096));
            case "d_rows_bool_4096" -> prepare(random, DType.BOOL, Shape.of(1, 4099), Shape.of(4096, 4099));
            case "d_rows_string_4096" -> prepare(random, DType.STRING, Shape.of(1, 4096), Shape.of(1024, 4096));
            default -> throw new IllegalArgumentException("unknown scenario " + scenario);
        }
        copySource = allocator.buffer(bytes);
        copyTarget = allocator.buffer(bytes);
        MemoryUtil.setMemory(copySource.memoryAddress(), bytes, (byte) 7);
        MemoryUtil.setMemory(copyTarget.memoryAddress(), bytes, (byte) 0);
        System.out.println();
        System.out.println("# " + scenario + ": " + kernel.program() + ", " + bytes + " bytes");
    }

    private void prepare(Random random, DType dtype, Shape input, Shape output) {
        CopyProgram program = CopyProgram.of(
                output, InputBroadcast.rightAligned(input, output.rank()).sourceStrides(output));
        int count = (int) input.elements();
        SourceTensor source;
        if (dtype == DType.STRING) {
            int[] sourceOffsets = new int[count + 1];
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < count; i++) {
                text.append("value-").append(random.nextInt(1_000_000)).append('é');
                sourceOffsets[i + 1] = text.toString().getBytes(StandardCharsets.UTF_8).length;
            }
            source = SourceTensor.strings(input, sourceOffsets, text.toString().getBytes(StandardCharsets.UTF_8), null);
        } else {
            byte[] data = new byte[dtype == DType.BOOL ? (count + 7) / 8 : count * dtype.byteWidth()];
            random.nextBytes(data);
            source = SourceTensor.fixedWidth(dtype, input, data, null);
        }
        kernel = TensorKernel.of(source, program);
        elements = program.elements();
        if (dtype == DType.STRING) {
            offsets = allocator.buffer((elements + 1) * 4);
            values = allocator.buffer(1);
            int dataBytes = kernel.fillStringOffsets(0, elements, offsets);
            values.close();
            values = allocator.buffer(dataBytes);
            bytes = (elements + 1) * 4 + dataBytes;
        } else {
            bytes = dtype == DType.BOOL ? (elements + 7) / 8 : elements * dtype.byteWidth();
            values = allocator.buffer(bytes);
        }
        MemoryUtil.setMemory(values.memoryAddress(), values.capacity(), (byte) 0);
        fill();
    }

    private void fill() {
        if (kernel.dtype() == DType.STRING) {
            kernel.fillStringOffsets(0, elements, offsets);
            kernel.fillStringData(0, elements, offsets, values);
        } else {
            kernel.fillValues(0, elements, values);
        }
    }

    @Benchmark
    public long kernel() {
        fill();
        return values.getByte(bytes % values.capacity() / 2);
    }

    @Benchmark
    public long memcpy() {
        MemoryUtil.copyMemory(copySource.memoryAddress(), copyTarget.memoryAddress(), bytes);
        return copyTarget.getByte(bytes / 2);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        values.close();
        if (offsets != null) {
            offsets.close();
        }
        copySource.close();
        copyTarget.close();
        allocator.close();
    }
}
