package dev.tensorbroadcast.examples;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.job.OutputFormat;
import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.WriteSpec;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.Shape;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The README's Java example as a whole program: a .npy broadcast to Parquet files, and a tensor in memory broadcast to
 * a {@code Dataset<Row>}. The job module's tests compile and run it ({@code ExpandExampleTest}).
 *
 * <pre>
 * spark-submit --class dev.tensorbroadcast.examples.ExpandExample app.jar examples/row3.npy /tmp/example
 * </pre>
 *
 * Run with plain {@code java}, the JVM needs {@code --add-opens=java.base/java.nio=ALL-UNNAMED} (Arrow's memory);
 * spark-submit adds it.
 */
public final class ExpandExample {
    private ExpandExample() {}

    public static void main(String[] args) {
        String source = args[0];
        String output = args[1];
        SparkSession spark = SparkSession.builder().appName("tensor-broadcast example")
                .master(System.getProperty("spark.master", "local[*]")).getOrCreate();

        Manifest written = TensorBroadcast.builder()
                .source(source)                      // a .npy, Arrow IPC file or dataset, on any Hadoop file system
                .dialect(Dialect.NUMPY)
                .shape(1_000, 3)
                .output(output)
                .write(WriteSpec.builder()           // how to write: format, codec, row groups, limits, overwrite
                        .format(OutputFormat.PARQUET)
                        .build())
                .build()
                .run(spark);                         // runAll(spark) writes output/i for every input

        ByteBuffer bias = ByteBuffer.allocate(3 * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        bias.putFloat(0.5f).putFloat(1.5f).putFloat(2.5f);
        SourceTensor tensor = SourceTensor.fixedWidth(DType.FLOAT32, Shape.of(3), bias.array(), null);
        Dataset<Row> rows = TensorBroadcast.builder()  // no files: index bigint, tensor array<float>
                .source(tensor).dialect(Dialect.NUMPY).shape(8, 3).build()
                .toDataset(spark);

        List<Row> collected = rows.orderBy("index").collectAsList();
        System.out.println("wrote " + written.rows() + " rows of " + written.rowShape() + " in "
                + written.files().size() + (written.files().size() == 1 ? " file; " : " files; ") + collected.size()
                + " rows in memory, the last "
                + collected.get(collected.size() - 1).getList(1));
    }
}
