package dev.tensorbroadcast.job.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.parquet.ParquetTensorFileWriter;
import dev.tensorbroadcast.arrowio.parquet.ParquetWriteOptions;
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
        spark = SparkSession.builder().master("local[2]").appName("tensor-broadcast-test")
                .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "2").getOrCreate();
    }

    @AfterAll
    static void stopSpark() {
        spark.stop();
    }

    /** Writes every partition of {@code [rows... from input]} into dir/name and returns the plan's program. */
    private CopyProgram write(String name, SourceTensor source, long... target) throws Exception {
        BroadcastPlan plan = BroadcastRequest.builder(Dialect.NUMPY).input(source.shape(), source.dtype())
                .target(target).build().plan();
        PartitionPlan partitions = PartitionPlan.builderFor(plan).partitions(3).build();
        TensorKernel kernel = TensorKernel.of(source, plan.copyProgram(0));
        FileSystem fileSystem = FileSystem.getLocal(new Configuration(false));
        ParquetTensorFileWriter writer = ParquetTensorFileWriter.create()
                .withOptions(ParquetWriteOptions.defaults().withCodec(CompressionCodecName.SNAPPY));
        for (long p = 0; p < partitions.partitionCount(); p++) {
            writer.write(kernel, partitions.rowShape(), partitions.partition(p), fileSystem,
                    new org.apache.hadoop.fs.Path(dir.resolve(name).resolve("part-" + p + ".parquet").toUri()));
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
        CopyProgram program = write("floats", SourceTensor.fixedWidth(DType.FLOAT32, input, bytes.array(), null),
                10, 8);
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

    @Test
    void readsInt8AndStringsWithNulls() throws Exception {
        Shape input = Shape.of(3, 1);
        byte[] ints = {-7, 0, 100};
        write("ints", SourceTensor.fixedWidth(DType.INT8, input, ints, null), 3, 4);
        Dataset<Row> intRows = spark.read().parquet(dir.resolve("ints").toString()).orderBy("index");
        assertThat(intRows.schema().simpleString()).isEqualTo("struct<index:bigint,tensor:array<tinyint>>");
        List<Row> collected = intRows.collectAsList();
        assertThat(collected).extracting(row -> row.getList(1))
                .containsExactly(List.of((byte) -7, (byte) -7, (byte) -7, (byte) -7),
                        List.of((byte) 0, (byte) 0, (byte) 0, (byte) 0),
                        List.of((byte) 100, (byte) 100, (byte) 100, (byte) 100));

        byte[] utf8 = "aßc".getBytes(StandardCharsets.UTF_8);
        SourceTensor strings = SourceTensor.strings(Shape.of(3), new int[] {0, 1, 1, utf8.length},
                utf8, new byte[] {0b101});
        write("strings", strings, 2, 3);
        List<Row> stringRows = spark.read().parquet(dir.resolve("strings").toString()).orderBy("index")
                .collectAsList();
        // three partitions of a two-row output: the rows become the six scalars
        assertThat(stringRows).hasSize(6);
        assertThat(stringRows).extracting(row -> row.<String>getList(1).get(0))
                .containsExactly("a", null, "ßc", "a", null, "ßc");
    }
}
