package dev.tensorbroadcast.benchmarks;

import dev.tensorbroadcast.arrowio.ArrowWriteResult;
import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;
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
 * Decoding a Parquet list column of float32 rows of [64] (256 Ki rows, 64 MiB of values, one file in the page cache)
 * onto the heap: our page-by-page reader ({@code DatasetSlices.read}) against parquet-java's column reader taking the
 * same values one call each, the way a reader without our decoder goes. One thread: the figure is per core.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx2g", "--add-opens=java.base/java.nio=org.apache.arrow.memory.core,ALL-UNNAMED"})
public class ParquetDecodeBenchmark {
    private static final int ROWS = 256 * 1024;
    private static final int WIDTH = 64;

    @Param({"UNCOMPRESSED", "SNAPPY"})
    public String codec;

    private final Configuration conf = new Configuration();
    private Path directory;
    private TensorDataset dataset;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        directory = Files.createTempDirectory("parquet-decode");
        byte[] values = new byte[ROWS * WIDTH * 4];
        Random random = new Random(1);
        for (int i = 0; i < values.length; i += 4) {
            int bits = Float.floatToRawIntBits((float) random.nextGaussian());
            values[i] = (byte) bits;
            values[i + 1] = (byte) (bits >>> 8);
            values[i + 2] = (byte) (bits >>> 16);
            values[i + 3] = (byte) (bits >>> 24);
        }
        Shape shape = Shape.of(ROWS, WIDTH);
        SourceTensor source = SourceTensor.fixedWidth(DType.FLOAT32, shape, values, null);
        BroadcastPlan plan = BroadcastRequest.builder(Dialect.NUMPY)
                .input(shape)
                .target(TargetShape.of(ROWS, WIDTH))
                .build()
                .plan();
        PartitionPlan partitions = PartitionPlan.builderFor(plan).partitions(1).build();
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(
                directory.resolve("part-0.parquet").toUri());
        // one row group, as pyarrow writes up to a million rows
        ArrowWriteResult written = ParquetTensorFileWriter.create()
                .withBatchBytes(1L << 30)
                .withOptions(ParquetWriteOptions.defaults().withCodec(CompressionCodecName.valueOf(codec)))
                .write(
                        TensorKernel.of(source, plan.copyProgram(0)),
                        partitions.rowShape(),
                        partitions.partition(0),
                        FileSystem.getLocal(conf),
                        file);
        dataset = TensorDatasets.open(
                FileSystem.getLocal(conf),
                new org.apache.hadoop.fs.Path(directory.toUri()),
                directory.toString(),
                DatasetOptions.defaults().withColumn("tensor"));
        System.out.println();
        System.out.println(
                "# " + codec + ": " + written.bytes() + " bytes of file, " + values.length + " bytes of values");
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        try (var files = Files.list(directory)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(directory);
    }

    @Benchmark
    public SourceTensor pageByPage() {
        return DatasetSlices.read(dataset, new SourceRows(0, ROWS), conf).tensor();
    }

    @Benchmark
    public float columnReader() throws Exception {
        float sum = 0;
        org.apache.hadoop.fs.Path file =
                new org.apache.hadoop.fs.Path(dataset.parts().get(0).path());
        try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(file, conf))) {
            MessageType schema = reader.getFooter().getFileMetaData().getSchema();
            ColumnDescriptor values = schema.getColumnDescription(new String[] {"tensor", "list", "element"});
            byte[] target = new byte[ROWS * WIDTH * 4];
            int at = 0;
            for (PageReadStore pages = reader.readNextRowGroup(); pages != null; pages = reader.readNextRowGroup()) {
                ColumnReader column = new ColumnReadStoreImpl(
                                pages,
                                new GroupRecordConverter(schema).getRootConverter(),
                                schema,
                                reader.getFooter().getFileMetaData().getCreatedBy())
                        .getColumnReader(values);
                for (long i = 0, n = column.getTotalValueCount(); i < n; i++) {
                    if (column.getCurrentDefinitionLevel() == values.getMaxDefinitionLevel()) {
                        int bits = Float.floatToRawIntBits(column.getFloat());
                        target[at] = (byte) bits;
                        target[at + 1] = (byte) (bits >>> 8);
                        target[at + 2] = (byte) (bits >>> 16);
                        target[at + 3] = (byte) (bits >>> 24);
                        at += 4;
                    }
                    column.consume();
                }
            }
            sum += target[at - 1];
        }
        return sum;
    }
}
