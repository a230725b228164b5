package dev.tensorbroadcast.arrowio.source;

import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.planner.Shape;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * The feature table of fixtures/kept-columns (made by its make_fixtures.py) and the values its make_fixtures.py
 * gave row {@code r} of each kept column, as Arrow Java prints them.
 */
public final class KeptFixtures {
    public static final int ROWS = 600;
    public static final List<String> KEPT =
            List.of("user_id", "label", "score", "name", "day", "seen", "flag", "small");

    private KeptFixtures() {}

    public static Path directory(String format) throws Exception {
        return Path.of(KeptFixtures.class
                        .getResource("/fixtures/kept-columns/make_fixtures.py")
                        .toURI())
                .getParent()
                .resolve(format);
    }

    /**
     * Copies the fixture's {@code parquet}, {@code arrow}, {@code stream} or {@code stream-zstd} files into a new
     * directory {@code target}.
     */
    public static Path copy(String format, Path target) throws Exception {
        java.nio.file.Files.createDirectories(target);
        for (int part = 0; part < 2; part++) {
            String name = "part-" + part + "." + (format.startsWith("stream") ? "arrow" : format);
            try (java.io.InputStream in =
                    KeptFixtures.class.getResourceAsStream("/fixtures/kept-columns/" + format + "/" + name)) {
                java.nio.file.Files.copy(in, target.resolve(name));
            }
        }
        return target;
    }

    /** The fixture written as {@code parquet} or {@code arrow}, opened with rows of [1,8]. */
    public static TensorDataset open(String format, Configuration conf) throws Exception {
        Path directory = directory(format);
        return TensorDatasets.open(
                FileSystem.getLocal(conf),
                new org.apache.hadoop.fs.Path(directory.toUri()),
                directory.toString(),
                DatasetOptions.defaults().withColumn("features").withRowShape(Shape.of(1, 8)));
    }

    public static String expected(String column, long r) {
        return switch (column) {
            case "user_id" -> Long.toString(r);
            case "label" -> Long.toString(r % 3);
            case "score" -> Double.toString(r / 2.0);
            case "name" -> r % 7 == 0 ? "null" : "u" + r;
            case "day" -> Long.toString(19000 + r);
            case "seen" -> Long.toString(1_700_000_000_000_000L + 1000 * r);
            case "flag" -> Boolean.toString(r % 2 == 0);
            case "small" -> Long.toString(r % 100 - 50);
            default -> throw new IllegalArgumentException(column);
        };
    }

    /** Entry {@code i} of a kept column's vector as {@link #expected} writes it. */
    public static String actual(FieldVector vector, int i) {
        Object value = vector.getObject(i);
        if (value instanceof java.time.LocalDateTime time) {
            // timestamps and dates print as times; their stored numbers are what pyarrow gave
            return Long.toString(((org.apache.arrow.vector.BaseFixedWidthVector) vector)
                    .getDataBuffer()
                    .getLong((long) i * 8));
        }
        return String.valueOf(value);
    }
}
