package dev.tensorbroadcast.arrowio.format.arrow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.arrowio.ArrowWriteResult;
import dev.tensorbroadcast.arrowio.RandomTensors;
import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.Compression;
import dev.tensorbroadcast.arrowio.format.OutputCompression;
import dev.tensorbroadcast.arrowio.format.parquet.ParquetTensorFileWriter;
import dev.tensorbroadcast.arrowio.format.parquet.ParquetWriteOptions;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Partition;
import dev.tensorbroadcast.planner.Shape;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Batches (Arrow IPC) and pages (Parquet) compressed once per job: tasks that share the source object, running at
 * once, take the buffers and pages another task compressed, and each file is byte for byte the one a task with a
 * source of its own writes (which shares nothing with the others) and the one written with no reuse at all, for
 * sources that repeat across the tasks' partitions and ones that do not, for every codec.
 */
class JobCompressOnceTest {
    private static final Configuration CONF = new Configuration();

    @TempDir
    Path dir;

    private int files;

    /** One task's file: its bytes and how many batches or pages took bytes compressed before. */
    private record Written(byte[] bytes, long reused) {}

    /** How a file is written: the format, its codec and level, whether repeats are reused. */
    private record Writer(String format, String codec, int level, long batchBytes, long pageBytes, boolean reuse) {
        ArrowWriteResult write(TensorKernel kernel, Shape rowShape, Partition partition, Path file) throws Exception {
            if (format.equals("arrow")) {
                Compression compression = level == 0
                        ? Compression.of(OutputCompression.valueOf(codec))
                        : new Compression(OutputCompression.valueOf(codec), level);
                return ArrowTensorFileWriter.create()
                        .withBatchBytes(batchBytes)
                        .withCompression(compression)
                        .withRepeatsReused(reuse)
                        .write(
                                kernel,
                                rowShape,
                                partition,
                                FileSystem.getLocal(CONF),
                                new org.apache.hadoop.fs.Path(file.toUri()));
            }
            ParquetWriteOptions options =
                    new ParquetWriteOptions(CompressionCodecName.valueOf(codec), pageBytes).withRepeatsReused(reuse);
            return ParquetTensorFileWriter.create()
                    .withBatchBytes(batchBytes)
                    .withOptions(level == 0 ? options : options.withCompressionLevel(level))
                    .write(
                            kernel,
                            rowShape,
                            partition,
                            FileSystem.getLocal(CONF),
                            new org.apache.hadoop.fs.Path(file.toUri()));
        }
    }

    /**
     * Writes {@code tasks} partitions of the output's rows, one file each, the tasks on {@code threads} threads;
     * each task's kernel reads the source {@code sources} gives it (the same object for all: a job's shared source).
     */
    private List<Written> job(
            Supplier<SourceTensor> sources, CopyProgram program, Shape output, int tasks, int threads, Writer writer)
            throws Exception {
        Shape rowShape = Shape.of(Arrays.copyOfRange(output.dims(), 1, output.rank()));
        long rows = output.dim(0);
        long perTask = (rows + tasks - 1) / tasks;
        Path directory = Files.createDirectories(dir.resolve("job" + files++));
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Written>> futures = new ArrayList<>();
            for (int task = 0; task * perTask < rows; task++) {
                long first = task * perTask;
                Partition partition = new Partition(task, first, Math.min(perTask, rows - first), rowShape.elements());
                TensorKernel kernel = TensorKernel.of(sources.get(), program);
                Path file = directory.resolve("part-" + task + "." + writer.format());
                futures.add(pool.submit(() -> {
                    long reused =
                            writer.write(kernel, rowShape, partition, file).reused();
                    return new Written(Files.readAllBytes(file), reused);
                }));
            }
            List<Written> written = new ArrayList<>();
            for (Future<Written> future : futures) {
                written.add(future.get());
            }
            return written;
        } finally {
            pool.shutdownNow();
        }
    }

    private static long reused(List<Written> files) {
        return files.stream().mapToLong(Written::reused).sum();
    }

    private static void assertSameFiles(List<Written> actual, List<Written> expected, String what) {
        assertThat(actual).as(what).hasSameSizeAs(expected).isNotEmpty();
        for (int i = 0; i < expected.size(); i++) {
            assertThat(actual.get(i).bytes())
                    .as("%s, file %d", what, i)
                    .isEqualTo(expected.get(i).bytes());
        }
    }

    /** Float32 values {@code i * 0.25 - 3} of {@code shape}. */
    private static SourceTensor floats(Shape shape) {
        byte[] values = new byte[Math.toIntExact(shape.elements() * 4)];
        java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(values).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < shape.elements(); i++) {
            buffer.putFloat(i * 0.25f - 3);
        }
        return SourceTensor.fixedWidth(DType.FLOAT32, shape, values, null);
    }

    @ParameterizedTest(name = "{0} -> {1}, {2} {3} level {4}")
    @CsvSource({
        "'1,64', '48,64', arrow, ZSTD, 0",
        "'1,64', '48,64', arrow, ZSTD, 7",
        "'1,64', '48,64', arrow, LZ4, 0",
        "'1,64', '48,64', parquet, ZSTD, 0",
        "'1,64', '48,64', parquet, ZSTD, 9",
        "'1,64', '48,64', parquet, SNAPPY, 0",
        "'1,64', '48,64', parquet, GZIP, 0",
        "'3,1', '12,3,16', arrow, ZSTD, 0",
        "'3,1', '12,3,16', parquet, ZSTD, 0",
        "'48,1', '48,64', arrow, ZSTD, 0",
        "'48,1', '48,64', parquet, ZSTD, 0",
        "'48,64', '48,64', arrow, LZ4, 0",
        "'48,64', '48,64', parquet, SNAPPY, 0",
        "'4,1,16', '4,12,16', arrow, ZSTD, 0",
        "'4,1,16', '4,12,16', parquet, ZSTD, 0"
    })
    void tasksSharingTheSourceWriteTheFilesTasksOfTheirOwnWrite(
            String input, String output, String format, String codec, int level) throws Exception {
        Shape in =
                Shape.of(Stream.of(input.split(",")).mapToLong(Long::parseLong).toArray());
        Shape out =
                Shape.of(Stream.of(output.split(",")).mapToLong(Long::parseLong).toArray());
        CopyProgram program = RandomTensors.program(in, out);
        long rowBytes = 8 + out.elements() / out.dim(0) * 4 + 8;
        // 4 tasks; batches of 5 rows (the last of a task shorter), pages of 2 rows
        Writer once = new Writer(format, codec, level, 5 * rowBytes, 2 * (rowBytes - 16), true);
        SourceTensor shared = floats(in);

        List<Written> sharing = job(() -> shared, program, out, 4, 3, once);
        List<Written> own = job(() -> floats(in), program, out, 4, 1, once);
        List<Written> none = job(
                () -> floats(in),
                program,
                out,
                4,
                1,
                new Writer(format, codec, level, once.batchBytes(), once.pageBytes(), false));

        assertSameFiles(sharing, own, "shared source against a source per task");
        assertSameFiles(own, none, "reuse against none");
        // a source that does not vary along the first dim: each task's first batch or page repeats another task's
        boolean repeatsAcrossTasks = in.rank() < out.rank() || in.dim(0) == 1;
        if (repeatsAcrossTasks) {
            assertThat(reused(sharing)).isGreaterThan(reused(own));
        } else {
            assertThat(reused(sharing)).isEqualTo(reused(own));
        }
        assertThat(reused(none)).isZero();
    }

    /**
     * Random broadcasts, dtypes, nulls, partitions, batch and page sizes, codecs: the files of tasks sharing the
     * source are the bytes of tasks with sources of their own. Tasks must take other tasks' bytes in some of them,
     * or the test would prove nothing.
     */
    @Test
    void randomJobsWriteTheSameFilesSharedOrNot() throws Exception {
        DType[] dtypes = {DType.FLOAT32, DType.INT64, DType.BOOL, DType.STRING, DType.COMPLEX64, DType.INT8};
        Random random = new Random(42);
        long fromOtherTasks = 0;
        for (int round = 0; round < 20; round++) {
            Shape[] shapes = RandomTensors.broadcast(random, 5);
            Shape input = shapes[0];
            Shape output = shapes[1].rank() == 1 || random.nextBoolean()
                    ? Shape.of(concat(2 + random.nextInt(30), shapes[1].dims()))
                    : shapes[1];
            DType dtype = dtypes[random.nextInt(dtypes.length)];
            long seed = random.nextLong();
            boolean nulls = random.nextInt(3) == 0;
            Supplier<SourceTensor> copies = () -> RandomTensors.source(new Random(seed), dtype, input, nulls);
            SourceTensor shared = copies.get();
            CopyProgram program = RandomTensors.program(input, output);
            int tasks = 1 + random.nextInt(5);
            long batchBytes = 1 + random.nextInt(2000);
            long pageBytes = 1 + random.nextInt(1000);
            boolean arrow = random.nextBoolean();
            Writer writer = arrow
                    ? new Writer("arrow", random.nextBoolean() ? "LZ4" : "ZSTD", 0, batchBytes, pageBytes, true)
                    : new Writer("parquet", random.nextBoolean() ? "ZSTD" : "SNAPPY", 0, batchBytes, pageBytes, true);
            String what = input + " -> " + output + " " + dtype + (nulls ? " with nulls" : "") + ", " + tasks
                    + " tasks, " + writer;

            List<Written> sharing = job(() -> shared, program, output, tasks, 2, writer);
            List<Written> own = job(copies, program, output, tasks, 1, writer);
            assertSameFiles(sharing, own, what);
            fromOtherTasks += reused(sharing) - reused(own);
        }
        assertThat(fromOtherTasks).isGreaterThan(10);
    }

    private static long[] concat(long first, long[] rest) {
        long[] dims = new long[rest.length + 1];
        dims[0] = first;
        System.arraycopy(rest, 0, dims, 1, rest.length);
        return dims;
    }
}
