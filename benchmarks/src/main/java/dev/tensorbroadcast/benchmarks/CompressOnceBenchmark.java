package dev.tensorbroadcast.benchmarks;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.Compression;
import dev.tensorbroadcast.arrowio.format.OutputCompression;
import dev.tensorbroadcast.arrowio.format.StreamOutputFile;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowTensorFileWriter;
import dev.tensorbroadcast.arrowio.format.parquet.ParquetTensorFileWriter;
import dev.tensorbroadcast.arrowio.format.parquet.ParquetWriteOptions;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.InputBroadcast;
import dev.tensorbroadcast.planner.Partition;
import dev.tensorbroadcast.planner.Shape;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.WritableByteChannel;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
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
 * One 256 MiB partition (float32, the patterns of bench/run.sh) written compressed to a channel that discards it,
 * with and without reusing the compressed bytes of repeated batches and pages: what compress-once saves, apart from
 * the disk. Parquet pages of 1 MiB, batches (row groups) of 32 MiB, as the CLI writes them.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx2g", "--add-opens=java.base/java.nio=org.apache.arrow.memory.core,ALL-UNNAMED"})
public class CompressOnceBenchmark {
    private static final long BYTES = 256L << 20;

    @Param({"rows", "inner", "middle"})
    public String pattern;

    @Param({"arrow-lz4", "arrow-zstd", "parquet-zstd"})
    public String codec;

    @Param({"true", "false"})
    public boolean reuse;

    private TensorKernel kernel;
    private Shape rowShape;
    private Partition partition;

    @Setup(Level.Trial)
    public void setUp() {
        Shape input;
        Shape output;
        switch (pattern) {
            case "rows" -> {
                input = Shape.of(1, 4096);
                output = Shape.of(BYTES / 16384, 4096);
            }
            case "inner" -> {
                input = Shape.of(BYTES / 16384, 1);
                output = Shape.of(BYTES / 16384, 4096);
            }
            // as the CLI cuts [64,K,256]: rows of [256]
            case "middle" -> {
                input = Shape.of(64, 1, 256);
                output = Shape.of(64, BYTES / 65536, 256);
            }
            default -> throw new IllegalArgumentException("unknown pattern " + pattern);
        }
        CopyProgram program = CopyProgram.of(
                output, InputBroadcast.rightAligned(input, output.rank()).sourceStrides(output));
        ByteBuffer values = ByteBuffer.allocate((int) input.elements() * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < input.elements(); i++) {
            values.putFloat(i * 4, i % 1000003);
        }
        kernel = TensorKernel.of(SourceTensor.fixedWidth(DType.FLOAT32, input, values.array(), null), program);
        rowShape = Shape.of(output.dim(output.rank() - 1));
        long rows = output.elements() / rowShape.elements();
        partition = new Partition(0, 0, rows, rowShape.elements());
        System.out.println();
        System.out.println("# " + pattern + ": " + program + ", " + Arrays.toString(output.dims()));
    }

    @Benchmark
    public long write() throws IOException {
        Discard out = new Discard();
        switch (codec) {
            case "arrow-lz4", "arrow-zstd" ->
                ArrowTensorFileWriter.create()
                        .withCompression(Compression.of(
                                codec.equals("arrow-lz4") ? OutputCompression.LZ4 : OutputCompression.ZSTD))
                        .withRepeatsReused(reuse)
                        .write(kernel, rowShape, partition, out);
            case "parquet-zstd" ->
                ParquetTensorFileWriter.create()
                        .withOptions(ParquetWriteOptions.defaults()
                                .withCodec(CompressionCodecName.ZSTD)
                                .withRepeatsReused(reuse))
                        .write(kernel, rowShape, partition, out.file());
            default -> throw new IllegalArgumentException("unknown codec " + codec);
        }
        return out.bytes;
    }

    /** Counts and drops what it is given: an Arrow channel, and a Parquet output file over the same count. */
    private static final class Discard implements WritableByteChannel {
        long bytes;

        @Override
        public int write(ByteBuffer source) {
            int count = source.remaining();
            source.position(source.limit());
            bytes += count;
            return count;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {}

        OutputFile file() {
            return StreamOutputFile.over(
                    new OutputStream() {
                        @Override
                        public void write(int b) {
                            bytes++;
                        }

                        @Override
                        public void write(byte[] b, int off, int len) {
                            bytes += len;
                        }
                    },
                    () -> bytes,
                    "discard");
        }
    }
}
