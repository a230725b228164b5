package dev.tensorbroadcast.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.RowLayout;
import dev.tensorbroadcast.arrowio.format.parquet.ParquetTensorFileWriter;
import dev.tensorbroadcast.arrowio.format.parquet.ParquetWriteOptions;
import dev.tensorbroadcast.planner.BroadcastPlan;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.Shape;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spark's own Parquet reader (the vectorized one included) reads the files arrow-io writes. */
class SparkReadsOurParquetTest {
    private static SparkSession spark;

    @TempDir
    Path dir;

    @BeforeAll
    static void startSpark() {
        spark = SparkSession.builder()
                .master("local[2]")
                .appName("tensor-broadcast-test")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .getOrCreate();
    }

    @AfterAll
    static void stopSpark() {
        spark.stop();
    }

    /** Writes every partition of {@code [rows... from input]} into dir/name and returns the plan's program. */
    private CopyProgram write(String name, SourceTensor source, long... target) throws Exception {
        return write(name, RowLayout.FLAT, source, target);
    }

    private CopyProgram write(String name, RowLayout layout, SourceTensor source, long... target) throws Exception {
        BroadcastPlan plan = BroadcastRequest.builder(Dialect.NUMPY)
                .input(source.shape(), source.dtype())
                .target(target)
                .build()
                .plan();
        PartitionPlan partitions = PartitionPlan.builderFor(plan).partitions(3).build();
        TensorKernel kernel = TensorKernel.of(source, plan.copyProgram(0));
        FileSystem fileSystem = FileSystem.getLocal(new Configuration(false));
        ParquetTensorFileWriter writer = ParquetTensorFileWriter.create()
                .withOptions(ParquetWriteOptions.defaults()
                        .withCodec(CompressionCodecName.SNAPPY)
                        .withRowLayout(layout));
        for (long p = 0; p < partitions.partitionCount(); p++) {
            writer.write(
                    kernel,
                    partitions.rowShape(),
                    partitions.partition(p),
                    fileSystem,
                    new org.apache.hadoop.fs.Path(
                            dir.resolve(name).resolve("part-" + p + ".parquet").toUri()));
        }
        return plan.copyProgram(0);
    }

    @Test
    void readsFloatTensorsWithTheVectorizedReader() throws Exception {
        Shape input = Shape.of(1, 8);
        ByteBuffer bytes = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 8; i++) {
            bytes.putFloat(i * 4, i * 1.25f);
        }
        CopyProgram program =
                write("floats", SourceTensor.fixedWidth(DType.FLOAT32, input, bytes.array(), null), 10, 8);
        Dataset<Row> rows = spark.read().parquet(dir.resolve("floats").toString());
        assertThat(rows.schema().simpleString()).isEqualTo("struct<index:bigint,tensor:array<float>>");
        List<Row> sorted = rows.orderBy("index").collectAsList();
        assertThat(sorted).hasSize(10);
        for (int r = 0; r < 10; r++) {
            assertThat(sorted.get(r).getLong(0)).isEqualTo(r);
            List<Float> values = sorted.get(r).getList(1);
            for (int e = 0; e < 8; e++) {
                assertThat(values.get(e)).isEqualTo(program.sourceIndex(r * 8L + e) * 1.25f);
            }
        }
    }

    /** Nested rows are nested arrays to Spark: a [3,4] row is an array of 3 arrays of 4, no reshaping needed. */
    @Test
    void readsNestedRowsAsNestedArrays() throws Exception {
        Shape input = Shape.of(3, 1);
        ByteBuffer bytes = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 3; i++) {
            bytes.putFloat(i * 4, i * 1.25f + 1);
        }
        CopyProgram program = write(
                "nested",
                RowLayout.NESTED,
                SourceTensor.fixedWidth(DType.FLOAT32, input, bytes.array(), null),
                10,
                3,
                4);
        Dataset<Row> rows = spark.read().parquet(dir.resolve("nested").toString());
        assertThat(rows.schema().simpleString()).isEqualTo("struct<index:bigint,tensor:array<array<float>>>");
        List<Row> sorted = rows.orderBy("index").collectAsList();
        assertThat(sorted).hasSize(10);
        for (int r = 0; r < 10; r++) {
            assertThat(sorted.get(r).getLong(0)).isEqualTo(r);
            List<scala.collection.Seq<Float>> lists = sorted.get(r).getList(1);
            assertThat(lists).hasSize(3);
            for (int i = 0; i < 3; i++) {
                assertThat(lists.get(i).size()).isEqualTo(4);
                for (int j = 0; j < 4; j++) {
                    assertThat(lists.get(i).apply(j)).isEqualTo(program.sourceIndex(r * 12L + i * 4 + j) * 1.25f + 1);
                }
            }
        }
    }

    /**
     * The {@code index} statistics prune: a filter on a few rows reads one row group of forty, as Spark's own input
     * metrics count it. The file is ZSTD with repeated pages taken from the first (compress once), read unchanged.
     */
    @Test
    void readsOnlyTheRowGroupsAnIndexFilterNeeds() throws Exception {
        ByteBuffer bytes = ByteBuffer.allocate(64 * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 64; i++) {
            bytes.putFloat(i * 4, i - 0.5f);
        }
        SourceTensor source = SourceTensor.fixedWidth(DType.FLOAT32, Shape.of(1, 64), bytes.array(), null);
        BroadcastPlan plan = BroadcastRequest.builder(Dialect.NUMPY)
                .input(source.shape(), source.dtype())
                .target(4000, 64)
                .build()
                .plan();
        PartitionPlan partitions = PartitionPlan.builderFor(plan).partitions(1).build();
        // 100 rows of 64 floats and their index a row group: 40 of them
        var result = ParquetTensorFileWriter.create()
                .withBatchBytes(100 * (8 + 64 * 4 + 8))
                .withOptions(ParquetWriteOptions.defaults().withCodec(CompressionCodecName.ZSTD))
                .write(
                        TensorKernel.of(source, plan.copyProgram(0)),
                        partitions.rowShape(),
                        partitions.partition(0),
                        FileSystem.getLocal(new Configuration(false)),
                        new org.apache.hadoop.fs.Path(
                                dir.resolve("pruned").resolve("part-0.parquet").toUri()));
        assertThat(result.batches()).isEqualTo(40);
        assertThat(result.reused()).as("pages taken from the first").isEqualTo(39);

        Dataset<Row> rows = spark.read().parquet(dir.resolve("pruned").toString());
        long[] few = recordsRead(
                () -> assertThat(rows.where("index between 1234 and 1240").collectAsList())
                        .hasSize(7));
        long[] all = recordsRead(() -> assertThat(rows.collectAsList()).hasSize(4000));
        assertThat(few[0]).as("records read with the filter").isBetween(7L, 100L);
        assertThat(all[0]).as("records read without").isEqualTo(4000);

        Row row = rows.where("index = 3999").collectAsList().get(0);
        assertThat(row.<Float>getList(1)).hasSize(64).startsWith(-0.5f, 0.5f).endsWith(62.5f);
    }

    /**
     * The records and bytes Spark's tasks read while {@code query} ran (bytes count footers read twice, so on a
     * small compressed file they say little).
     */
    private static long[] recordsRead(Runnable query) throws Exception {
        long[] read = new long[2];
        org.apache.spark.scheduler.SparkListener listener = new org.apache.spark.scheduler.SparkListener() {
            @Override
            public void onTaskEnd(org.apache.spark.scheduler.SparkListenerTaskEnd taskEnd) {
                synchronized (read) {
                    read[0] += taskEnd.taskMetrics().inputMetrics().recordsRead();
                    read[1] += taskEnd.taskMetrics().inputMetrics().bytesRead();
                }
            }
        };
        spark.sparkContext().addSparkListener(listener);
        try {
            query.run();
            spark.sparkContext().listenerBus().waitUntilEmpty();
        } finally {
            spark.sparkContext().removeSparkListener(listener);
        }
        synchronized (read) {
            return read.clone();
        }
    }

    @Test
    void readsInt8AndStringsWithNulls() throws Exception {
        Shape input = Shape.of(3, 1);
        byte[] ints = {-7, 0, 100};
        write("ints", SourceTensor.fixedWidth(DType.INT8, input, ints, null), 3, 4);
        Dataset<Row> intRows =
                spark.read().parquet(dir.resolve("ints").toString()).orderBy("index");
        assertThat(intRows.schema().simpleString()).isEqualTo("struct<index:bigint,tensor:array<tinyint>>");
        List<Row> collected = intRows.collectAsList();
        assertThat(collected)
                .extracting(row -> row.getList(1))
                .containsExactly(
                        List.of((byte) -7, (byte) -7, (byte) -7, (byte) -7),
                        List.of((byte) 0, (byte) 0, (byte) 0, (byte) 0),
                        List.of((byte) 100, (byte) 100, (byte) 100, (byte) 100));

        byte[] utf8 = "aßc".getBytes(StandardCharsets.UTF_8);
        SourceTensor strings =
                SourceTensor.strings(Shape.of(3), new int[] {0, 1, 1, utf8.length}, utf8, new byte[] {0b101});
        write("strings", strings, 2, 3);
        List<Row> stringRows = spark.read()
                .parquet(dir.resolve("strings").toString())
                .orderBy("index")
                .collectAsList();
        // three partitions of a two-row output: the rows become the six scalars
        assertThat(stringRows).hasSize(6);
        assertThat(stringRows)
                .extracting(row -> row.<String>getList(1).get(0))
                .containsExactly("a", null, "ßc", "a", null, "ßc");
    }
}
