package dev.tensorbroadcast.arrowio.source;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowTensorFileWriter;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Partition;
import dev.tensorbroadcast.planner.Shape;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * Dataset files as other tools write them, all holding float32 rows where element {@code k} of dataset row {@code r}
 * is {@code r * 1000 + k}: Arrow IPC lists (Arrow Java, as pyarrow writes them), Parquet lists (DuckDB), and our
 * own tensor files.
 */
public final class DatasetFixtures {
    private DatasetFixtures() {}

    public static float value(long row, long element) {
        return row * 1000 + element;
    }

    /** An Arrow IPC file of a {@code list<float>} column named {@code column}, one record batch per entry of batches. */
    public static Path arrowLists(Path file, String column, long firstRow, int rowLength, boolean index, int... batches)
            throws IOException {
        return arrowLists(file, column, firstRow, rowLength, index, CompressionUtil.CodecType.NO_COMPRESSION, batches);
    }

    /** As {@link #arrowLists(Path, String, long, int, boolean, int...)}, with the bodies compressed by {@code codec}. */
    public static Path arrowLists(
            Path file,
            String column,
            long firstRow,
            int rowLength,
            boolean index,
            CompressionUtil.CodecType codec,
            int... batches)
            throws IOException {
        Field values =
                new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null);
        Field list = new Field(column, FieldType.nullable(new ArrowType.List()), List.of(values));
        List<Field> fields = index
                ? List.of(new Field("index", FieldType.notNullable(new ArrowType.Int(64, true)), null), list)
                : List.of(list);
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(fields), allocator);
                OutputStream out = Files.newOutputStream(file);
                ArrowFileWriter writer = codec == CompressionUtil.CodecType.NO_COMPRESSION
                        ? new ArrowFileWriter(root, null, Channels.newChannel(out))
                        : new ArrowFileWriter(
                                root,
                                null,
                                Channels.newChannel(out),
                                null,
                                IpcOption.DEFAULT,
                                CommonsCompressionFactory.INSTANCE,
                                codec)) {
            writer.start();
            long row = firstRow;
            for (int rows : batches) {
                root.allocateNew();
                ListVector vector = (ListVector) root.getVector(column);
                Float4Vector data = (Float4Vector) vector.getDataVector();
                int value = 0;
                for (int r = 0; r < rows; r++) {
                    vector.startNewValue(r);
                    for (int k = 0; k < rowLength; k++) {
                        data.setSafe(value++, value(row + r, k));
                    }
                    vector.endValue(r, rowLength);
                    if (index) {
                        ((BigIntVector) root.getVector("index")).setSafe(r, row + r);
                    }
                }
                data.setValueCount(value);
                root.setRowCount(rows);
                writer.writeBatch();
                row += rows;
            }
            writer.end();
        }
        return file;
    }

    /** Parquet written by DuckDB: {@code tensor float[]} (and {@code index bigint}) for dataset rows [first, end). */
    public static Path duckdbLists(Path file, long first, long end, int rowLength, boolean index) throws SQLException {
        String indexColumn = index ? "i AS index, " : "";
        sql("COPY (SELECT " + indexColumn + "[CAST(i * 1000 + k AS FLOAT) FOR k IN range(" + rowLength + ")] AS tensor"
                + " FROM range(" + first + ", " + end + ") t(i) ORDER BY i) TO '" + file + "' (FORMAT PARQUET)");
        return file;
    }

    /**
     * Parquet written by parquet-java's example writer, as Spark's writer lays out an {@code array<float>}:
     * {@code tensor} a three-level LIST of floats, dataset rows [first, end), with v1 or v2 data pages.
     */
    public static Path parquetJavaLists(Path file, long first, long end, int rowLength, boolean v2Pages)
            throws IOException {
        MessageType schema = MessageTypeParser.parseMessageType("message spark_schema { optional group tensor (LIST)"
                + " { repeated group list { required float element; } } }");
        SimpleGroupFactory groups = new SimpleGroupFactory(schema);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file.toUri()))
                .withType(schema)
                .withConf(new org.apache.hadoop.conf.Configuration())
                .withWriterVersion(
                        v2Pages
                                ? ParquetProperties.WriterVersion.PARQUET_2_0
                                : ParquetProperties.WriterVersion.PARQUET_1_0)
                .withCompressionCodec(CompressionCodecName.SNAPPY)
                .withDictionaryEncoding(true)
                .build()) {
            for (long r = first; r < end; r++) {
                Group row = groups.newGroup();
                Group list = row.addGroup("tensor");
                for (int k = 0; k < rowLength; k++) {
                    list.addGroup("list").append("element", value(r, k));
                }
                writer.write(row);
            }
        }
        return file;
    }

    public static void sql(String statement) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
                Statement query = connection.createStatement()) {
            query.execute(statement);
        }
    }

    /** Our own Arrow tensor file (index + fixed_shape_tensor) of dataset rows [first, first + rows) of rowShape. */
    public static Path ourArrow(Path file, long first, long rows, Shape rowShape) throws IOException {
        long rowElements = rowShape.elements();
        long total = first + rows;
        ByteBuffer values = ByteBuffer.allocate((int) (total * rowElements * 4)).order(ByteOrder.LITTLE_ENDIAN);
        for (long r = 0; r < total; r++) {
            for (long k = 0; k < rowElements; k++) {
                values.putFloat(value(r, k));
            }
        }
        long[] dims = new long[rowShape.rank() + 1];
        dims[0] = total;
        System.arraycopy(rowShape.dims(), 0, dims, 1, rowShape.rank());
        Shape shape = Shape.of(dims);
        SourceTensor source = SourceTensor.fixedWidth(DType.FLOAT32, shape, values.array(), null);
        CopyProgram identity = CopyProgram.of(shape, shape.strides());
        try (OutputStream out = Files.newOutputStream(file)) {
            ArrowTensorFileWriter.create()
                    .withBatchBytes(3 * rowElements * 4)
                    .write(
                            TensorKernel.of(source, identity),
                            rowShape,
                            new Partition(0, first, rows, rowElements),
                            out);
        }
        return file;
    }
}
