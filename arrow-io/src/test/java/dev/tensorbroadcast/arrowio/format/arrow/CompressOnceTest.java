package dev.tensorbroadcast.arrowio.format.arrow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.arrowio.ArrowWriteResult;
import dev.tensorbroadcast.arrowio.RandomTensors;
import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.Compression;
import dev.tensorbroadcast.arrowio.format.OutputCompression;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.format.parquet.ParquetTensorFileWriter;
import dev.tensorbroadcast.arrowio.format.parquet.ParquetWriteOptions;
import dev.tensorbroadcast.arrowio.source.DatasetOptions;
import dev.tensorbroadcast.arrowio.source.DatasetSlices;
import dev.tensorbroadcast.arrowio.source.TensorDatasets;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Partition;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.SourceRows;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compress once, write many: a batch (Arrow IPC) or page (Parquet) whose tensor the copy program proves equal to an
 * earlier one's takes its compressed bytes, and the file is byte for byte the one that compressing everything gives.
 */
class CompressOnceTest {
    private static final Configuration CONF = new Configuration();
    private static final DType[] DTYPES = {
        DType.FLOAT32, DType.INT64, DType.BOOL, DType.STRING, DType.COMPLEX64, DType.INT8
    };

    @TempDir
    Path dir;

    private int files;

    private record Written(byte[] bytes, ArrowWriteResult result) {}

    private Written arrow(
            TensorKernel kernel, Shape rowShape, Partition partition, Compression codec, long batchBytes, boolean reuse)
            throws Exception {
        ArrowTensorFileWriter writer = ArrowTensorFileWriter.create()
                .withBatchBytes(batchBytes)
                .withCompression(codec)
                .withRepeatsReused(reuse);
        return write(
                kernel,
                rowShape,
                partition,
                "arrow",
                (file, fileSystem) -> writer.write(kernel, rowShape, partition, fileSystem, file));
    }

    private Written parquet(
            TensorKernel kernel,
            Shape rowShape,
            Partition partition,
            CompressionCodecName codec,
            long batchBytes,
            long pageBytes,
            boolean reuse)
            throws Exception {
        ParquetTensorFileWriter writer = ParquetTensorFileWriter.create()
                .withBatchBytes(batchBytes)
                .withOptions(new ParquetWriteOptions(codec, pageBytes).withRepeatsReused(reuse));
        return write(
                kernel,
                rowShape,
                partition,
                "parquet",
                (file, fileSystem) -> writer.write(kernel, rowShape, partition, fileSystem, file));
    }

    private interface FileWrite {
        ArrowWriteResult write(org.apache.hadoop.fs.Path file, FileSystem fileSystem) throws Exception;
    }

    private Written write(TensorKernel kernel, Shape rowShape, Partition partition, String format, FileWrite write)
            throws Exception {
        Path directory = Files.createDirectories(dir.resolve("d" + files++));
        Path file = directory.resolve("part-0." + format);
        ArrowWriteResult result = write.write(new org.apache.hadoop.fs.Path(file.toUri()), FileSystem.getLocal(CONF));
        return new Written(Files.readAllBytes(file), result);
    }

    /** [1,64] float32 to [96,64]: every row the same, so every batch (and page) of whole rows is the first one. */
    private static TensorKernel rowsPattern() {
        ByteBuffer values = ByteBuffer.allocate(64 * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 64; i++) {
            values.putFloat(i * 4, i * 0.25f - 3);
        }
        return TensorKernel.of(
                SourceTensor.fixedWidth(DType.FLOAT32, Shape.of(1, 64), values.array(), null),
                RandomTensors.program(Shape.of(1, 64), Shape.of(96, 64)));
    }

    @Test
    void arrowBatchesOfRepeatedRowsAreCompressedOnce() throws Exception {
        TensorKernel kernel = rowsPattern();
        Partition partition = new Partition(0, 0, 96, 64);
        // 8 rows a batch: 12 batches
        long batchBytes = 8 * (8 + 64 * 4 + 8);
        for (Compression codec :
                List.of(Compression.of(OutputCompression.LZ4), Compression.of(OutputCompression.ZSTD))) {
            Written once = arrow(kernel, Shape.of(64), partition, codec, batchBytes, true);
            Written every = arrow(kernel, Shape.of(64), partition, codec, batchBytes, false);

            assertThat(once.result().batches()).isEqualTo(12);
            assertThat(once.result().reused()).as(codec.toString()).isEqualTo(11);
            assertThat(every.result().reused()).isZero();
            assertThat(once.bytes()).as(codec.toString()).isEqualTo(every.bytes());
            assertValues(once);
        }
    }

    @Test
    void parquetPagesOfRepeatedRowsAreCompressedOnce() throws Exception {
        TensorKernel kernel = rowsPattern();
        Partition partition = new Partition(0, 0, 96, 64);
        // two row groups of 48 rows, pages of 4 rows: 24 pages, of which only the first is compressed
        long batchBytes = 48 * (8 + 64 * 4 + 8);
        for (CompressionCodecName codec : new CompressionCodecName[] {
            CompressionCodecName.ZSTD, CompressionCodecName.SNAPPY, CompressionCodecName.GZIP
        }) {
            Written once = parquet(kernel, Shape.of(64), partition, codec, batchBytes, 4 * 64 * 4, true);
            Written every = parquet(kernel, Shape.of(64), partition, codec, batchBytes, 4 * 64 * 4, false);

            assertThat(once.result().batches()).isEqualTo(2);
            assertThat(once.result().reused()).as(codec.toString()).isEqualTo(23);
            assertThat(every.result().reused()).isZero();
            assertThat(once.bytes()).as(codec.toString()).isEqualTo(every.bytes());
            assertValues(once);
        }
    }

    @Test
    void uncompressedFilesReuseNothing() throws Exception {
        TensorKernel kernel = rowsPattern();
        Partition partition = new Partition(0, 0, 96, 64);
        assertThat(arrow(kernel, Shape.of(64), partition, Compression.NONE, 1000, true)
                        .result()
                        .reused())
                .isZero();
        assertThat(parquet(kernel, Shape.of(64), partition, CompressionCodecName.UNCOMPRESSED, 10_000, 1000, true)
                        .result()
                        .reused())
                .isZero();
    }

    /** The file read back: every row is the source row. */
    private void assertValues(Written written) throws Exception {
        Path directory = dir.resolve("d" + (files - 2));
        TensorDataset back = TensorDatasets.open(
                FileSystem.getLocal(CONF),
                new org.apache.hadoop.fs.Path(directory.toUri()),
                directory.toString(),
                DatasetOptions.defaults().withColumn("tensor"));
        ByteBuffer read = ByteBuffer.wrap(DatasetSlices.read(back, new SourceRows(0, 96), CONF)
                        .tensor()
                        .values())
                .order(ByteOrder.LITTLE_ENDIAN);
        for (int row = 0; row < 96; row++) {
            for (int i = 0; i < 64; i++) {
                assertThat(read.getFloat(4 * (row * 64 + i)))
                        .as("row %d, element %d", row, i)
                        .isEqualTo(i * 0.25f - 3);
            }
        }
    }

    /**
     * Random broadcasts, dtypes, nulls, partitions, batch and page sizes: with reuse the file is the same bytes as
     * without, whatever was reused. Reuse must happen in some of them, or the test would prove nothing.
     */
    @Test
    void filesAreTheSameBytesWithAndWithoutReuse() throws Exception {
        Random random = new Random(14);
        long reused = 0;
        for (int round = 0; round < 60; round++) {
            Shape[] shapes = RandomTensors.broadcast(random, 6);
            Shape input = shapes[0];
            // half of them get leading rows that repeat, the broadcast whose batches repeat whole
            Shape output = shapes[1].rank() == 1 || random.nextBoolean()
                    ? prepend(2 + random.nextInt(40), shapes[1])
                    : shapes[1];
            DType dtype = DTYPES[random.nextInt(DTYPES.length)];
            SourceTensor source = RandomTensors.source(random, dtype, input, random.nextInt(3) == 0);
            CopyProgram program = RandomTensors.program(input, output);
            TensorKernel kernel = TensorKernel.of(source, program);
            Shape rowShape = Shape.of(Arrays.copyOfRange(output.dims(), 1, output.rank()));
            long rows = output.dim(0);
            long firstRow = random.nextLong(rows);
            Partition partition = new Partition(0, firstRow, rows - firstRow, rowShape.elements());
            long batchBytes = 1 + random.nextInt(2000);
            String what = input + " -> " + output + " " + dtype + " from row " + firstRow + ", batches of " + batchBytes
                    + " bytes";

            Compression ipc = Compression.of(random.nextBoolean() ? OutputCompression.LZ4 : OutputCompression.ZSTD);
            Written arrowOnce = arrow(kernel, rowShape, partition, ipc, batchBytes, true);
            Written arrowEvery = arrow(kernel, rowShape, partition, ipc, batchBytes, false);
            assertThat(arrowOnce.bytes()).as("%s, %s", what, ipc).isEqualTo(arrowEvery.bytes());

            long pageBytes = 1 + random.nextInt(1000);
            CompressionCodecName codec = random.nextBoolean() ? CompressionCodecName.ZSTD : CompressionCodecName.SNAPPY;
            Written parquetOnce = parquet(kernel, rowShape, partition, codec, batchBytes, pageBytes, true);
            Written parquetEvery = parquet(kernel, rowShape, partition, codec, batchBytes, pageBytes, false);
            assertThat(parquetOnce.bytes())
                    .as("%s, %s pages of %d bytes", what, codec, pageBytes)
                    .isEqualTo(parquetEvery.bytes());
            reused += arrowOnce.result().reused() + parquetOnce.result().reused();
        }
        assertThat(reused).isGreaterThan(100);
    }

    private static Shape prepend(long dim, Shape shape) {
        long[] dims = new long[shape.rank() + 1];
        dims[0] = dim;
        System.arraycopy(shape.dims(), 0, dims, 1, shape.rank());
        return Shape.of(dims);
    }
}
