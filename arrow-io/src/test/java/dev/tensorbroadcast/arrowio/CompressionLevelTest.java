package dev.tensorbroadcast.arrowio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.format.Compression;
import dev.tensorbroadcast.arrowio.format.OutputCompression;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowTensorFileWriter;
import dev.tensorbroadcast.arrowio.format.parquet.ParquetTensorFileWriter;
import dev.tensorbroadcast.arrowio.format.parquet.ParquetWriteOptions;
import dev.tensorbroadcast.arrowio.source.DatasetOptions;
import dev.tensorbroadcast.arrowio.source.DatasetSlices;
import dev.tensorbroadcast.arrowio.source.TensorDatasets;
import dev.tensorbroadcast.planner.BroadcastPlan;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.SourceRows;
import dev.tensorbroadcast.planner.TargetShape;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A zstd level reaches both writers: a higher level gives a smaller file that reads back the same values; and
 * BYTE_STREAM_SPLIT Parquet pages read back the same values as PLAIN ones.
 */
class CompressionLevelTest {
    private static final Configuration CONF = new Configuration();

    @TempDir
    Path dir;

    /** A row of a ramp that zstd compresses better the harder it tries, broadcast to [2048,4096]. */
    private static TensorKernel kernel(BroadcastPlan plan) {
        ByteBuffer values = ByteBuffer.allocate(4096 * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 4096; i++) {
            values.putFloat(i % 97 + i / 1024);
        }
        return TensorKernel.of(
                SourceTensor.fixedWidth(DType.FLOAT32, Shape.of(1, 4096), values.array(), null), plan.copyProgram(0));
    }

    private long write(String format, int level) throws Exception {
        BroadcastPlan plan = BroadcastRequest.builder(Dialect.NUMPY)
                .input(Shape.of(1, 4096))
                .target(TargetShape.of(2048, 4096))
                .build()
                .plan();
        PartitionPlan partitions = PartitionPlan.builderFor(plan).partitions(1).build();
        Path directory = Files.createDirectories(dir.resolve(format + "-" + level));
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(
                directory.resolve("part-0." + format).toUri());
        FileSystem fileSystem = FileSystem.getLocal(CONF);
        ArrowWriteResult result = format.equals("arrow")
                ? ArrowTensorFileWriter.create()
                        .withCompression(new Compression(OutputCompression.ZSTD, level))
                        .write(kernel(plan), partitions.rowShape(), partitions.partition(0), fileSystem, file)
                : ParquetTensorFileWriter.create()
                        .withOptions(ParquetWriteOptions.defaults()
                                .withCodec(CompressionCodecName.ZSTD)
                                .withCompressionLevel(level))
                        .write(kernel(plan), partitions.rowShape(), partitions.partition(0), fileSystem, file);
        TensorDataset back = TensorDatasets.open(
                fileSystem,
                new org.apache.hadoop.fs.Path(directory.toUri()),
                directory.toString(),
                DatasetOptions.defaults().withColumn("tensor"));
        ByteBuffer read = ByteBuffer.wrap(DatasetSlices.read(back, new SourceRows(2047, 2048), CONF)
                        .tensor()
                        .values())
                .order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 4096; i++) {
            assertThat(read.getFloat(4 * i)).isEqualTo(i % 97 + i / 1024);
        }
        return result.bytes();
    }

    @Test
    void aHigherLevelWritesSmallerFilesOfTheSameValues() throws Exception {
        for (String format : new String[] {"arrow", "parquet"}) {
            long fast = write(format, 1);
            long small = write(format, 19);
            assertThat(small).as(format).isLessThan(fast);
        }
    }

    @Test
    void onlyZstdTakesALevel() {
        // the Arrow writer takes a Compression, whose level is checked where it is made
        assertThatThrownBy(
                        () -> ArrowTensorFileWriter.create().withCompression(new Compression(OutputCompression.LZ4, 3)))
                .hasMessage("Cannot use compression 'lz4:3': lz4 takes no level; expected none, lz4, zstd, zstd:1"
                        + " to zstd:22, gzip or gzip:1 to gzip:9");
        assertThatThrownBy(() -> ParquetWriteOptions.defaults()
                        .withCodec(CompressionCodecName.ZSTD)
                        .withCompressionLevel(23))
                .hasMessage("Cannot use compression level 23 with ZSTD: ZSTD takes 1 to 22," + " other codecs none");
    }

    @Test
    void byteStreamSplitPagesHoldTheSameValues() throws Exception {
        BroadcastPlan plan = BroadcastRequest.builder(Dialect.NUMPY)
                .input(Shape.of(1, 4096))
                .target(TargetShape.of(2048, 4096))
                .build()
                .plan();
        PartitionPlan partitions = PartitionPlan.builderFor(plan).partitions(1).build();
        Path directory = Files.createDirectories(dir.resolve("split"));
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(
                directory.resolve("part-0.parquet").toUri());
        FileSystem fileSystem = FileSystem.getLocal(CONF);

        ParquetTensorFileWriter.create()
                .withOptions(ParquetWriteOptions.defaults()
                        .withCodec(CompressionCodecName.ZSTD)
                        .withByteStreamSplit(true))
                .write(kernel(plan), partitions.rowShape(), partitions.partition(0), fileSystem, file);

        try (org.apache.parquet.hadoop.ParquetFileReader reader = org.apache.parquet.hadoop.ParquetFileReader.open(
                org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(file, CONF))) {
            assertThat(reader.getRowGroups().get(0).getColumns().get(1).getEncodings())
                    .contains(org.apache.parquet.column.Encoding.BYTE_STREAM_SPLIT)
                    .doesNotContain(org.apache.parquet.column.Encoding.PLAIN);
        }
        TensorDataset back = TensorDatasets.open(
                fileSystem,
                new org.apache.hadoop.fs.Path(directory.toUri()),
                directory.toString(),
                DatasetOptions.defaults().withColumn("tensor"));
        ByteBuffer read = ByteBuffer.wrap(DatasetSlices.read(back, new SourceRows(0, 2048), CONF)
                        .tensor()
                        .values())
                .order(ByteOrder.LITTLE_ENDIAN);
        for (int row = 0; row < 2048; row += 511) {
            for (int i = 0; i < 4096; i++) {
                assertThat(read.getFloat(4 * (row * 4096 + i))).isEqualTo(i % 97 + i / 1024);
            }
        }
    }
}
