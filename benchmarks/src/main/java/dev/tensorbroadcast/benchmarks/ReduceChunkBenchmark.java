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
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
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
 * A reduce task's loop over a page-cached {@code .npy} (issue 28): read a chunk of rows by offset into one heap
 * buffer ({@link NpyRows}, as {@code GradientRows} does), add it into the partial, next chunk; 256 MiB of float32
 * rows {@code [16384,4096] -> [1,4096]}. {@code chunk} is the bytes per read: the 16 MiB chunk of before, and the
 * 1 MiB one that stays in cache between the read and the sum. {@code pread} alone reads the same chunks and sums
 * nothing: what the file system's copy costs.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx2g"})
public class ReduceChunkBenchmark {
    private static final int ROWS = 16384;
    private static final int COLUMNS = 4096;

    @Param({"16777216", "1048576"})
    public long chunk;

    private Path file;
    private NpyLayout layout;
    private FileSystem fileSystem;
    private ReducePlan plan;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        file = Files.createTempFile("reduce-chunk", ".npy");
        // a plain .npy 1.0 header: magic, version, header length, then the dict padded to 128 bytes in all
        String dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + ROWS + ", " + COLUMNS + "), }";
        StringBuilder header = new StringBuilder(dict);
        while (header.length() < 128 - 10 - 1) {
            header.append(' ');
        }
        header.append('\n');
        ByteBuffer start = ByteBuffer.allocate(128).order(ByteOrder.LITTLE_ENDIAN);
        start.put((byte) 0x93)
                .put("NUMPY".getBytes(StandardCharsets.US_ASCII))
                .put((byte) 1)
                .put((byte) 0)
                .putShort((short) header.length())
                .put(header.toString().getBytes(StandardCharsets.US_ASCII));
        Random random = new Random(3);
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE)) {
            out.write(start.flip());
            ByteBuffer row = ByteBuffer.allocate(4 * COLUMNS).order(ByteOrder.LITTLE_ENDIAN);
            for (int r = 0; r < ROWS; r++) {
                row.clear();
                for (int c = 0; c < COLUMNS; c++) {
                    row.putFloat(random.nextInt(129) - 64);
                }
                out.write(row.flip());
            }
        }
        layout = new NpyLayout(DType.FLOAT32, Shape.of(ROWS, COLUMNS), 128, 0);
        fileSystem = FileSystem.getLocal(new Configuration());
        plan = ReducePlan.of(
                BroadcastRequest.builder(Dialect.NUMPY)
                        .input(Shape.of(1, COLUMNS))
                        .target(ROWS, COLUMNS)
                        .build()
                        .plan(),
                0);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        Files.deleteIfExists(file);
    }

    @Benchmark
    public ReduceKernel readAndSum() throws IOException {
        return readAndSum(fileSystem, file, layout, plan, chunk);
    }

    /**
     * What a rows-summed task does with a float32 {@code .npy} of {@code layout}'s {@code [rows, columns]}: reads
     * {@code chunk} bytes of rows at a time through {@link NpyRows} and adds them into one partial.
     */
    static ReduceKernel readAndSum(FileSystem fileSystem, Path file, NpyLayout layout, ReducePlan plan, long chunk)
            throws IOException {
        long rowCount = layout.shape().dim(0);
        long columns = layout.shape().dim(1);
        ReduceKernel partial = ReduceKernel.create(DType.FLOAT32, columns);
        long chunkRows = Math.max(1, chunk / (4L * columns));
        try (NpyRows rows = NpyRows.open(fileSystem, new org.apache.hadoop.fs.Path(file.toString()), layout)) {
            for (long row = 0; row < rowCount; row += chunkRows) {
                long end = Math.min(rowCount, row + chunkRows);
                SourceTensor tensor = rows.read(new SourceRows(row, end), true);
                partial.accumulate(tensor, row * columns, plan.program(), row * columns, end * columns, 0);
            }
        }
        return partial;
    }

    @Benchmark
    public long pread() throws IOException {
        long chunkRows = Math.max(1, chunk / (4L * COLUMNS));
        long sum = 0;
        try (NpyRows rows = NpyRows.open(fileSystem, new org.apache.hadoop.fs.Path(file.toString()), layout)) {
            for (long row = 0; row < ROWS; row += chunkRows) {
                sum += rows.read(new SourceRows(row, Math.min(ROWS, row + chunkRows)), true)
                        .values()[0];
            }
        }
        return sum;
    }
}
