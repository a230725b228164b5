package dev.tensorbroadcast.benchmarks;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.npy.NpyLayout;
import dev.tensorbroadcast.arrowio.format.npy.NpyRows;
import dev.tensorbroadcast.arrowio.reduce.ReduceKernel;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.ReducePlan;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.SourceRows;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
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
 * A rows-summed reduce task's loop over a page-cached float32 {@code .npy} (issue 28, branch sum2), 512 MiB
 * {@code [32768,4096] -> [1,4096]}, one op = the whole file: {@code heap} is what a task does (positional reads of
 * the file's channel into a heap buffer through {@link NpyRows}, which the JDK copies once more from its temporary
 * direct buffer, then {@link ReduceKernel}'s loop over the {@code byte[]}); {@code direct} reads into one direct
 * buffer and sums from its address with {@code Unsafe.getFloat}, the same additions in the same order (checked
 * against the heap path's bits at the start). The kernel path over native memory that {@code direct} stands for was
 * built and measured end to end on branch sum2 and not kept: docs/benchmarks.md, issue 28.
 * {@code readHeap} and {@code readDirect} only read. Run with {@code -prof perfnorm:events=task-clock} for CPU
 * milliseconds per op (per 512 MiB), which another process on the same cores does not inflate.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx2g"})
public class ReduceDirectBenchmark {
    private static final int ROWS = 32768;
    private static final int COLUMNS = 4096;
    private static final int HEADER = 128;
    private static final sun.misc.Unsafe UNSAFE = unsafe();
    private static final long ADDRESS = addressOffset();

    /** Bytes per read. */
    @Param({"262144", "1048576", "4194304"})
    public int chunk;

    private Path file;
    private NpyLayout layout;
    private FileSystem fileSystem;
    private ReducePlan plan;
    private FileChannel channel;
    private ByteBuffer direct;
    private long address;
    private double[] sums;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        file = Files.createTempFile("reduce-direct", ".npy");
        String dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + ROWS + ", " + COLUMNS + "), }";
        StringBuilder header = new StringBuilder(dict);
        while (header.length() < HEADER - 10 - 1) {
            header.append(' ');
        }
        header.append('\n');
        ByteBuffer start = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN);
        start.put((byte) 0x93)
                .put("NUMPY".getBytes(StandardCharsets.US_ASCII))
                .put((byte) 1)
                .put((byte) 0)
                .putShort((short) header.length())
                .put(header.toString().getBytes(StandardCharsets.US_ASCII));
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE)) {
            out.write(start.flip());
            ByteBuffer rows = ByteBuffer.allocate(64 * 4 * COLUMNS).order(ByteOrder.LITTLE_ENDIAN);
            for (int r = 0; r < ROWS; r += 64) {
                rows.clear();
                for (int i = 0; i < 64 * COLUMNS; i++) {
                    // small integers, as bench/reduce.sh's gradient: exact in float32 and in the sums
                    rows.putFloat(((r * 31 + i * 7) % 129) - 64);
                }
                out.write(rows.flip());
            }
        }
        layout = new NpyLayout(DType.FLOAT32, Shape.of(ROWS, COLUMNS), HEADER, 0);
        fileSystem = FileSystem.getLocal(new Configuration());
        plan = ReducePlan.of(
                BroadcastRequest.builder(Dialect.NUMPY)
                        .input(Shape.of(1, COLUMNS))
                        .target(ROWS, COLUMNS)
                        .build()
                        .plan(),
                0);
        channel = FileChannel.open(file, StandardOpenOption.READ);
        direct = ByteBuffer.allocateDirect(chunk);
        address = UNSAFE.getLong(direct, ADDRESS);
        sums = new double[COLUMNS];
        // into the page cache before the first iteration
        readDirect();
        ReduceKernel heap = heap();
        double[] fromDirect = direct();
        SourceTensor result = heap.result(Shape.of(1, COLUMNS));
        for (int c = 0; c < COLUMNS; c++) {
            float expected = ByteBuffer.wrap(result.values())
                    .order(ByteOrder.LITTLE_ENDIAN)
                    .getFloat(4 * c);
            if (Float.floatToIntBits(expected) != Float.floatToIntBits((float) fromDirect[c])) {
                throw new IllegalStateException("column " + c + ": heap " + expected + ", direct " + fromDirect[c]);
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        channel.close();
        Files.deleteIfExists(file);
    }

    @Benchmark
    public ReduceKernel heap() throws IOException {
        return ReduceChunkBenchmark.readAndSum(fileSystem, file, layout, plan, chunk);
    }

    @Benchmark
    public double[] direct() throws IOException {
        double[] into = sums;
        java.util.Arrays.fill(into, 0.0);
        int chunkRows = chunk / (4 * COLUMNS);
        for (int row = 0; row < ROWS; row += chunkRows) {
            int rows = Math.min(ROWS - row, chunkRows);
            readFully(HEADER + (long) row * 4 * COLUMNS, rows * 4 * COLUMNS);
            for (int k = 0; k < rows; k++) {
                long at = address + 4L * COLUMNS * k;
                for (int i = 0; i < COLUMNS; i++) {
                    into[i] += UNSAFE.getFloat(at + 4L * i);
                }
            }
        }
        return into;
    }

    @Benchmark
    public long readHeap() throws IOException {
        long chunkRows = chunk / (4L * COLUMNS);
        long sum = 0;
        try (NpyRows rows = NpyRows.open(fileSystem, new org.apache.hadoop.fs.Path(file.toString()), layout)) {
            for (long row = 0; row < ROWS; row += chunkRows) {
                sum += rows.read(new SourceRows(row, Math.min(ROWS, row + chunkRows)), true)
                        .values()[0];
            }
        }
        return sum;
    }

    @Benchmark
    public long readDirect() throws IOException {
        int chunkRows = chunk / (4 * COLUMNS);
        long sum = 0;
        for (int row = 0; row < ROWS; row += chunkRows) {
            int rows = Math.min(ROWS - row, chunkRows);
            readFully(HEADER + (long) row * 4 * COLUMNS, rows * 4 * COLUMNS);
            sum += UNSAFE.getByte(address);
        }
        return sum;
    }

    private void readFully(long position, int bytes) throws IOException {
        direct.clear().limit(bytes);
        long at = position;
        while (direct.hasRemaining()) {
            int read = channel.read(direct, at);
            if (read < 0) {
                throw new IOException("end of file at byte " + at);
            }
            at += read;
        }
    }

    private static sun.misc.Unsafe unsafe() {
        try {
            Field field = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            return (sun.misc.Unsafe) field.get(null);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static long addressOffset() {
        try {
            return UNSAFE.objectFieldOffset(Buffer.class.getDeclaredField("address"));
        } catch (NoSuchFieldException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
