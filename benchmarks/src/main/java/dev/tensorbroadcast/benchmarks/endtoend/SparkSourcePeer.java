package dev.tensorbroadcast.benchmarks.endtoend;

import java.util.Locale;
import org.apache.spark.sql.DataFrameWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The Spark side of {@code bench/spark-source.sh}: the {@code tensorbroadcast} data source read by a Spark
 * application, as a user of the data source runs it (the job module's jar on the class path, the source found by its
 * short name), and Spark reading Parquet, for the comparison with what the source reads.
 *
 * <pre>{@code
 * java ... SparkSourcePeer source-parquet <input.npy> <shape> <output> <master> [<codec> <dictionary>]
 *                                                                     # into Spark's Parquet sink
 * java ... SparkSourcePeer source-sink <input.npy> <shape> <output> <master>     # into our sink, as Parquet
 * java ... SparkSourcePeer source-noop <input.npy> <shape> - <master>            # every row consumed
 * java ... SparkSourcePeer parquet-noop <dataset dir> - - <master>               # Spark's Parquet reader
 * java ... SparkSourcePeer dataset-noop <dataset dir> - - <master>               # the source reading our dataset
 * }</pre>
 *
 * The Parquet sink writes with Spark's defaults (snappy, dictionary encoding) unless given a codec ({@code none},
 * {@code snappy}, {@code zstd}...) and {@code dictionary} {@code on} or {@code off} ({@code parquet.enable.dictionary},
 * which a user sets as a writer option). Prints one line: {@code job_seconds <s>}, the time from a ready session to the
 * last row written or consumed.
 */
public final class SparkSourcePeer {
    private SparkSourcePeer() {}

    public static void main(String[] args) {
        if (args.length != 5 && args.length != 7) {
            throw new IllegalArgumentException("Cannot run the data source peer with " + args.length
                    + " arguments: give <source-parquet|source-sink|source-noop|parquet-noop|dataset-noop> <input> <shape>"
                    + " <output>"
                    + " <master> [<codec> <dictionary on|off>]");
        }
        String mode = args[0];
        SparkSession spark = SparkSession.builder()
                .appName("spark-source-peer")
                .master(args[4])
                .config("spark.ui.enabled", "false")
                .config("spark.ui.showConsoleProgress", "false")
                .getOrCreate();
        spark.sparkContext().setLogLevel("WARN");
        long start = System.nanoTime();
        switch (mode) {
            case "source-parquet" -> {
                DataFrameWriter<Row> writer = broadcast(spark, args[1], args[2]).write();
                if (args.length == 7) {
                    writer.option("compression", args[5]).option("parquet.enable.dictionary", dictionary(args[6]));
                }
                writer.parquet(args[3]);
            }
            case "source-sink" ->
                broadcast(spark, args[1], args[2])
                        .write()
                        .format("tensorbroadcast")
                        .option("format", "parquet")
                        .mode("append")
                        .save(args[3]);
            case "source-noop" -> consume(broadcast(spark, args[1], args[2]));
            case "parquet-noop" -> consume(spark.read().parquet(args[1]));
            case "dataset-noop" ->
                consume(spark.read().format("tensorbroadcast").load(args[1]));
            default ->
                throw new IllegalArgumentException("Cannot run mode '" + mode
                        + "': give source-parquet, source-sink, source-noop, parquet-noop or dataset-noop");
        }
        System.out.println(String.format(Locale.ROOT, "job_seconds %.3f", (System.nanoTime() - start) / 1e9));
        spark.stop();
    }

    static String dictionary(String onOrOff) {
        return switch (onOrOff) {
            case "on" -> "true";
            case "off" -> "false";
            default -> throw new IllegalArgumentException("Cannot set dictionary '" + onOrOff + "': give on or off");
        };
    }

    private static Dataset<Row> broadcast(SparkSession spark, String input, String shape) {
        return spark.read()
                .format("tensorbroadcast")
                .option("input", input)
                .option("dialect", "numpy")
                .option("shape", shape)
                .load();
    }

    /** Every row read and dropped: Spark's noop sink, which materializes each row and writes nothing. */
    static void consume(Dataset<Row> rows) {
        rows.write().format("noop").mode("overwrite").save();
    }
}
