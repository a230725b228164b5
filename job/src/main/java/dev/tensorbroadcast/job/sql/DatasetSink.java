package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.TensorFileSchema;
import dev.tensorbroadcast.arrowio.format.ArrayChunking;
import dev.tensorbroadcast.arrowio.format.DatasetFileFormat;
import dev.tensorbroadcast.arrowio.format.WriteSettings;
import dev.tensorbroadcast.job.WriteSpec;
import dev.tensorbroadcast.job.base.DatasetException;
import dev.tensorbroadcast.job.base.Reasons;
import dev.tensorbroadcast.job.base.ToolVersion;
import dev.tensorbroadcast.job.manifest.DatasetFile;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.ManifestJson;
import dev.tensorbroadcast.job.manifest.ManifestShapes;
import dev.tensorbroadcast.job.manifest.SourceRead;
import dev.tensorbroadcast.job.sink.FileOptions;
import dev.tensorbroadcast.job.store.Locations;
import dev.tensorbroadcast.job.store.Store;
import dev.tensorbroadcast.job.store.Stores;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Shape;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.SerializableConfiguration;

/**
 * {@code df.write.format("tensorbroadcast").option("format", "parquet").mode("append").save(dir)}, with
 * {@code expand}'s write settings as options ({@link SinkOptions}): a DataFrame of
 * {@code index bigint, tensor array<number>} written as a dataset of ours, each partition one part file written by
 * the format's writer ({@link PartWriters}); at the job's commit the driver names the files {@code part-NNNNN} in row
 * order, as {@code expand} names its partitions', then writes the manifest and {@code _SUCCESS}. Only a new or empty
 * directory is written.
 */
final class DatasetSink implements WriteBuilder, SupportsTruncate, Write, BatchWrite {
    private static final String TEMPORARY = "_temporary";

    private final String location;
    private final DatasetFileFormat format;
    private final WriteSettings settings;
    private final DType dtype;
    private final long[] rowShape;
    private final Configuration conf;
    private final Path directory;
    private final Path temporary;

    DatasetSink(String location, Map<String, String> options, StructType schema) {
        this.location = requireNonNull(location, "location is null");
        WriteSpec spec = SinkOptions.parse(options);
        this.format = spec.format().orElseThrow().format();
        this.settings = spec.settings();
        this.dtype = dtype(schema);
        StructField tensor = schema.apply(TensorFileSchema.TENSOR_COLUMN);
        this.rowShape = tensor.metadata().contains(SparkTypes.SHAPE_METADATA)
                ? tensor.metadata().getLongArray(SparkTypes.SHAPE_METADATA)
                : null;
        this.conf = SparkSession.active().sparkContext().hadoopConfiguration();
        this.directory = Locations.locate("output", location, conf).path();
        this.temporary =
                new Path(new Path(directory, TEMPORARY), UUID.randomUUID().toString());
    }

    @Override
    public WriteBuilder truncate() {
        return this;
    }

    @Override
    public Write build() {
        return this;
    }

    @Override
    public BatchWrite toBatch() {
        try {
            FileSystem fileSystem = directory.getFileSystem(conf);
            try {
                if (fileSystem.listStatus(directory).length > 0) {
                    throw new DatasetException("Cannot write " + location + ": it is not empty; a tensorbroadcast"
                            + " dataset is written into a new or empty directory");
                }
            } catch (FileNotFoundException e) {
                // a new directory
            }
            fileSystem.mkdirs(temporary);
        } catch (IOException e) {
            throw new DatasetException("Cannot write " + location + ": " + Reasons.of(e));
        }
        return this;
    }

    @Override
    public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
        JavaSparkContext java =
                JavaSparkContext.fromSparkContext(SparkSession.active().sparkContext());
        return new PartWriters(
                temporary.toString(),
                format,
                settings,
                dtype,
                rowShape,
                java.broadcast(new SerializableConfiguration(conf)));
    }

    @Override
    public void commit(WriterCommitMessage[] messages) {
        List<WrittenPart> parts = new ArrayList<>(Arrays.stream(messages)
                .map(WrittenPart.class::cast)
                .filter(part -> part.rows() > 0)
                .toList());
        parts.sort(Comparator.comparingLong(WrittenPart::firstRow));
        long next = 0;
        for (WrittenPart part : parts) {
            if (part.firstRow() != next) {
                abort(messages);
                throw new InvalidRequestException("Cannot write " + location + ": its rows are not index 0, 1, 2, ..."
                        + " (after row " + (next - 1) + " comes " + part.firstRow() + ")");
            }
            next += part.rows();
        }
        Shape row = parts.isEmpty()
                ? Shape.of(rowShape == null ? new long[] {0} : rowShape)
                : Shape.of(parts.get(0).rowShape());
        try {
            FileSystem fileSystem = directory.getFileSystem(conf);
            List<DatasetFile> files = new ArrayList<>();
            for (int i = 0; i < parts.size(); i++) {
                WrittenPart part = parts.get(i);
                String name = Manifest.partFileName(i, part.extension());
                if (!fileSystem.rename(new Path(part.temporary()), new Path(directory, name))) {
                    throw new IOException("cannot move " + part.temporary() + " to " + name);
                }
                files.add(new DatasetFile(
                        name,
                        i,
                        part.firstRow(),
                        part.rows(),
                        part.bytes(),
                        part.crc32c(),
                        part.executorId(),
                        part.host(),
                        new SourceRead(part.firstRow(), part.rows(), 0)));
            }
            fileSystem.delete(new Path(directory, TEMPORARY), true);
            long[] dims = new long[row.rank() + 1];
            dims[0] = next;
            System.arraycopy(row.dims(), 0, dims, 1, row.rank());
            Shape shape = Shape.of(dims);
            FileOptions options = new FileOptions(format, ArrayChunking.DEFAULT, settings);
            Manifest manifest = new Manifest(
                    Manifest.FORMAT_VERSION,
                    ToolVersion.version(),
                    Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(),
                    Map.of(),
                    List.of(),
                    ManifestShapes.list(shape),
                    dtype.typeName(),
                    shape.elements(),
                    shape.elements() * dtype.byteWidth(),
                    shape.rank() - row.rank(),
                    ManifestShapes.list(row),
                    next,
                    format.name(),
                    options.codecName(),
                    files.size(),
                    files,
                    List.of(),
                    options.settings().rowLayout().layoutName());
            Store store = Stores.forPath(directory);
            store.publish(fileSystem, directory, Manifest.FILE_NAME, ManifestJson.toBytes(manifest));
            store.publish(fileSystem, directory, Manifest.SUCCESS_FILE_NAME, new byte[0]);
        } catch (IOException e) {
            throw new DatasetException("Cannot finish dataset '" + location + "': " + Reasons.of(e));
        }
    }

    @Override
    public void abort(WriterCommitMessage[] messages) {
        try {
            directory.getFileSystem(conf).delete(new Path(directory, TEMPORARY), true);
        } catch (IOException e) {
            // the job's failure is what the user is told; _temporary marks the dataset unfinished
        }
    }

    /** The element type of the tensor column, which our writers take. */
    private static DType dtype(StructType schema) {
        List<String> names = Arrays.asList(schema.fieldNames());
        if (!names.equals(List.of(TensorFileSchema.INDEX_COLUMN, TensorFileSchema.TENSOR_COLUMN))
                || schema.apply(0).dataType() != DataTypes.LongType
                || !(schema.apply(1).dataType() instanceof ArrayType array)) {
            throw new InvalidRequestException("Cannot write a tensorbroadcast dataset of " + schema.simpleString()
                    + ": expected index bigint, tensor array<number>");
        }
        DataType element = array.elementType();
        if (element == DataTypes.ByteType) {
            return DType.INT8;
        } else if (element == DataTypes.ShortType) {
            return DType.INT16;
        } else if (element == DataTypes.IntegerType) {
            return DType.INT32;
        } else if (element == DataTypes.LongType) {
            return DType.INT64;
        } else if (element == DataTypes.FloatType) {
            return DType.FLOAT32;
        } else if (element == DataTypes.DoubleType) {
            return DType.FLOAT64;
        }
        throw new InvalidRequestException("Cannot write a tensorbroadcast dataset of tensor " + element.simpleString()
                + ": expected tinyint, smallint, int, bigint, float or double elements");
    }
}
