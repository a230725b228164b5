package dev.tensorbroadcast.benchmarks.endtoend;

import static org.apache.spark.sql.functions.array_repeat;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.element_at;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.slice;

import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The Spark peer of {@code bench/run.sh}: the same broadcast written the way a Spark user would without this tool,
 * {@code spark.range} with the source as an array literal and index arithmetic, then {@code df.write().parquet}.
 * Source values are {@code arange(n) % 1000003} as float32, as in the numpy baseline and the job's inputs.
 *
 * <pre>{@code java ... SparkSqlPeer <pattern rows|inner|middle> <size> <partitions> <output> <master> <codec> [<dictionary>]}</pre>
 *
 * An {@code output} of {@code -} has Spark's {@code noop} sink consume the rows instead (codec and dictionary unused).
 * {@code size} is N for {@code [1,4096]->[N,4096]} and {@code [N,1]->[N,4096]}, K for {@code [64,1,256]->[64,K,256]}.
 * {@code dictionary} is {@code on} (Spark's default) or {@code off} ({@code parquet.enable.dictionary}). Prints one line: {@code job_seconds <s>}, the time from a ready session to the written dataset.
 */
public final class SparkSqlPeer {
    private static final int ROW = 4096;
    private static final int MIDDLE_OUTER = 64;
    private static final int MIDDLE_INNER = 256;

    private SparkSqlPeer() {}

    public static void main(String[] args) {
        if (args.length != 6 && args.length != 7) {
            throw new IllegalArgumentException("Cannot run the Spark SQL peer with " + args.length
                    + " arguments: give <rows|inner|middle> <size> <partitions> <output> <master> <codec>"
                    + " [<dictionary on|off>]");
        }
        String pattern = args[0];
        long size = Long.parseLong(args[1]);
        int partitions = Integer.parseInt(args[2]);
        SparkSession spark = SparkSession.builder()
                .appName("spark-sql-peer")
                .master(args[4])
                .config("spark.ui.enabled", "false")
                .config("spark.ui.showConsoleProgress", "false")
                .getOrCreate();
        spark.sparkContext().setLogLevel("WARN");
        long start = System.nanoTime();
        Dataset<Row> rows = switch (pattern) {
            // [1,4096] -> [N,4096]: every row is the source row
            case "rows" ->
                spark.range(0, size, 1, partitions)
                        .select(col("id").as("index"), lit(values(ROW)).as("tensor"));
            // [N,1] -> [N,4096]: row i repeats source element i
            case "inner" ->
                spark.range(0, size, 1, partitions)
                        .select(
                                col("id").as("index"),
                                array_repeat(
                                                element_at(
                                                        lit(values(Math.toIntExact(size))),
                                                        col("id").plus(1).cast("int")),
                                                ROW)
                                        .as("tensor"));
            // [64,1,256] -> [64,K,256]: row r (of 64*K rows of 256) is source block r / K
            case "middle" ->
                spark.range(0, MIDDLE_OUTER * size, 1, partitions)
                        .select(
                                col("id").as("index"),
                                slice(
                                                lit(values(MIDDLE_OUTER * MIDDLE_INNER)),
                                                col("id")
                                                        .divide(size)
                                                        .cast("long")
                                                        .multiply(MIDDLE_INNER)
                                                        .plus(1),
                                                lit(MIDDLE_INNER))
                                        .as("tensor"));
            default ->
                throw new IllegalArgumentException("Cannot run pattern '" + pattern + "': give rows, inner or middle");
        };
        String dictionary = SparkSourcePeer.dictionary(args.length == 7 ? args[6] : "on");
        if (args[3].equals("-")) {
            // the rows made and dropped: what the idiom costs before any sink
            SparkSourcePeer.consume(rows);
        } else {
            rows.write()
                    .option("compression", args[5])
                    .option("parquet.enable.dictionary", dictionary)
                    .parquet(args[3]);
        }
        System.out.println(String.format(Locale.ROOT, "job_seconds %.3f", (System.nanoTime() - start) / 1e9));
        spark.stop();
    }

    private static float[] values(int count) {
        float[] values = new float[count];
        for (int i = 0; i < count; i++) {
            values[i] = i % 1000003;
        }
        return values;
    }
}
