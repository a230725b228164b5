package dev.tensorbroadcast.job.sql;

import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.dataset.DatasetDirectory;
import dev.tensorbroadcast.job.dataset.NpyExporter;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.Shape;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.util.Float16;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * A broadcast of one dtype under one dialect, as the data source's options and as the Java API's request, and the
 * bytes of both: the table's values narrowed back to the dtype, and {@code expand}'s files exported as {@code .npy}.
 * What {@link TensorBroadcastSourceTest} checks on a local Spark and the cluster IT on a standalone cluster.
 *
 * @param descr the source's numpy type ({@code <f4})
 */
record TensorBytes(String descr, Dialect dialect) {
    /** 14 dtypes across the seven dialects (float16 twice: numpy's rule and openvino's). */
    static final List<TensorBytes> CASES = List.of(
            of("<f4", "numpy"),
            of("<f8", "pytorch"),
            of("|i1", "onnx"),
            of("<i8", "mindspore"),
            of("|b1", "paddle"),
            of("<f2", "numpy"),
            of("<f2", "openvino"),
            of("|u1", "numpy"),
            of("<u2", "numpy"),
            of("<u4", "numpy"),
            of("<u8", "numpy"),
            of("<i2", "numpy"),
            of("<i4", "ngraph"),
            of("<c8", "numpy"),
            of("<c16", "numpy"));

    static TensorBytes of(String descr, String dialect) {
        return new TensorBytes(descr, Dialect.parse(dialect));
    }

    /** Writes the source into {@code dir}: ngraph's new axes are the only dims that grow, the others take it as is. */
    Path source(Path dir) throws IOException {
        return npy(dir, descr, dialect == Dialect.NGRAPH ? new long[] {5, 4} : new long[] {3, 1, 4});
    }

    /** The read of {@code input} to [2,3,5,4] (pytorch's -1 keeps a dim): two rows of [3,5,4]. */
    DataFrameReader options(DataFrameReader reader, String input) {
        reader.option("input", input).option("dialect", dialect.dialectName());
        if (dialect == Dialect.NGRAPH) {
            return reader.option("shape", "2,3,5,4").option("broadcast-axes", "[0,1]");
        }
        return reader.option("shape", dialect == Dialect.PYTORCH ? "2,-1,5,-1" : "2,3,5,4");
    }

    /** The same request through the Java API. */
    TensorBroadcast.Builder request(String input) {
        TensorBroadcast.Builder api = TensorBroadcast.builder().source(input).dialect(dialect);
        if (dialect == Dialect.NGRAPH) {
            return api.shape(2, 3, 5, 4).broadcastAxes(List.of(0L, 1L));
        }
        return dialect == Dialect.PYTORCH ? api.shape(2, -1, 5, -1) : api.shape(2, 3, 5, 4);
    }

    /** {@code expand}'s dataset of the request, written to {@code dir} by {@code spark}, as the values of a .npy. */
    byte[] expanded(String input, SparkSession spark, Path dir) throws IOException {
        Path expanded = dir.resolve("expanded");
        request(input).output(expanded.toString()).build().run(spark);
        Path npy = dir.resolve("expanded.npy");
        try (DatasetDirectory written = DatasetDirectory.open(expanded.toString(), new Configuration(), "export")) {
            new NpyExporter(written, NpyExporter.DEFAULT_MAX_BYTES).export(npy, false);
        }
        return npyValues(npy);
    }

    /** The table's values in index order as a .npy of {@link #descr} stores them: the widened types narrowed back. */
    byte[] values(Dataset<Row> table) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ByteBuffer element = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        for (Row row : table.orderBy("index").collectAsList()) {
            for (Object value : row.getList(1)) {
                element.clear();
                switch (descr.substring(1)) {
                    case "b1" -> element.put((byte) ((Boolean) value ? 1 : 0));
                    case "i1", "u1" -> element.put(((Number) value).byteValue());
                    case "i2", "u2" -> element.putShort(((Number) value).shortValue());
                    case "i4", "u4" -> element.putInt(((Number) value).intValue());
                    case "i8" -> element.putLong((Long) value);
                    case "u8" ->
                        element.putLong(((BigDecimal) value).toBigIntegerExact().longValue());
                    case "f2" -> element.putShort(Float16.toFloat16((Float) value));
                    case "f4" -> element.putFloat((Float) value);
                    case "f8" -> element.putDouble((Double) value);
                    case "c8" -> element.putFloat(((Row) value).getFloat(0)).putFloat(((Row) value).getFloat(1));
                    case "c16" -> element.putDouble(((Row) value).getDouble(0)).putDouble(((Row) value).getDouble(1));
                    default -> throw new IllegalArgumentException(descr);
                }
                bytes.write(element.array(), 0, element.position());
            }
        }
        return bytes.toByteArray();
    }

    @Override
    public String toString() {
        return descr + " " + dialect.dialectName();
    }

    /** The values of a .npy file: what follows its header (version 1 has a 2-byte header length, 2 and 3 a 4-byte). */
    static byte[] npyValues(Path npy) throws IOException {
        byte[] file = Files.readAllBytes(npy);
        ByteBuffer header = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        int start = file[6] == 1 ? 10 + Short.toUnsignedInt(header.getShort(8)) : 12 + header.getInt(8);
        return Arrays.copyOfRange(file, start, file.length);
    }

    /** A tensor of {@code descr} whose element {@code i} is {@code i * 3 + 1} (true for odd {@code i} as bool). */
    static Path npy(Path dir, String descr, long[] shape) throws IOException {
        int elements = Math.toIntExact(Shape.of(shape).elements());
        int width = Integer.parseInt(descr.substring(2));
        ByteBuffer data = ByteBuffer.allocate(elements * width).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < elements; i++) {
            int value = i * 3 + 1;
            switch (descr.substring(1)) {
                case "b1" -> data.put((byte) (i & 1));
                case "i1", "u1" -> data.put((byte) value);
                case "i2", "u2" -> data.putShort((short) (value - 5));
                case "f2" -> data.putShort(Float16.toFloat16(value + 0.5f));
                case "i4", "u4" -> data.putInt(-value);
                case "i8", "u8" -> data.putLong(-value * 1_000_000_007L);
                case "f4" -> data.putFloat(value / 3f);
                case "f8" -> data.putDouble(value / 7d);
                case "c8" -> data.putFloat(value).putFloat(-value);
                case "c16" -> data.putDouble(value).putDouble(-value / 2d);
                default -> throw new IllegalArgumentException(descr);
            }
        }
        return NpyFiles.write(
                dir.resolve("t" + Map.of("<", "l", "|", "p").get(descr.substring(0, 1)) + descr.substring(1) + ".npy"),
                descr,
                shape,
                data.array());
    }
}
