package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.TensorFileSchema;
import dev.tensorbroadcast.arrowio.format.ArrayFileFormat;
import dev.tensorbroadcast.arrowio.format.ArrayLayout;
import dev.tensorbroadcast.arrowio.format.TensorFileFormat;
import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.job.OutputFormat;
import dev.tensorbroadcast.job.WriteSpec;
import dev.tensorbroadcast.job.base.Crc32c;
import dev.tensorbroadcast.job.base.DatasetException;
import dev.tensorbroadcast.job.base.Reasons;
import dev.tensorbroadcast.job.base.ToolVersion;
import dev.tensorbroadcast.job.manifest.DatasetFile;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.ManifestJson;
import dev.tensorbroadcast.job.manifest.ManifestShapes;
import dev.tensorbroadcast.job.manifest.SourceRead;
import dev.tensorbroadcast.job.sink.FileOptions;
import dev.tensorbroadcast.job.sql.WrittenPart.WrittenObject;
import dev.tensorbroadcast.job.store.Locations;
import dev.tensorbroadcast.job.store.Store;
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
import java.util.stream.Collectors;
import java.util.zip.CRC32C;
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
 * {@code index bigint, tensor array<number>} (then any columns to keep) written as a dataset of ours, each partition
 * one part file written by the format's writer, or for Zarr its rows' chunk objects ({@link PartWriters}), through
 * {@code expand}'s commit ({@link SinkCommit}); after the job's commit the files are {@code part-NNNNN} in row order,
 * as {@code expand} names its partitions' (an array's objects keep their keys, and its {@code zarr.json} follows
 * them), then the driver writes the manifest and {@code _SUCCESS}. Only a new or empty directory is written.
 */
final class DatasetSink implements WriteBuilder, SupportsTruncate, Write, BatchWrite {
    private final String location;
    private final FileOptions files;
    private final DType dtype;
    private final List<KeptColumn> kept;
    private final long[] rowShape;
    private final Configuration conf;
    private final Path directory;
    /** The job's commit, set up when the write starts ({@link #toBatch}). */
    private SinkCommit commit;
    /** Whether the job made the directory: a failed job leaves none behind. */
    private boolean created;

    DatasetSink(String location, Map<String, String> options, StructType schema) {
        this.location = requireNonNull(location, "location is null");
        WriteSpec spec = SinkOptions.parse(options);
        OutputFormat format = spec.format().orElseThrow();
        this.files = new FileOptions(
                format.array().<TensorFileFormat>map(array -> array).orElseGet(format::format),
                format.chunking(),
                spec.settings());
        this.dtype = dtype(schema);
        this.kept = kept(schema);
        StructField tensor = schema.apply(TensorFileSchema.TENSOR_COLUMN);
        this.rowShape = tensor.metadata().contains(SparkTypes.SHAPE_METADATA)
                ? tensor.metadata().getLongArray(SparkTypes.SHAPE_METADATA)
                : null;
        if (files.array().isPresent() && rowShape != null) {
            // the chunks' rank and size, refused before any task runs
            SinkArrays.layout(files, dtype, 0, Shape.of(rowShape));
        }
        this.conf = SparkSession.active().sparkContext().hadoopConfiguration();
        this.directory = Locations.locate("output", location, conf).path();
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
                created = true;
            }
            commit = SinkCommit.setUp(directory, conf);
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
                commit.committer(),
                commit.jobTrackerId(),
                commit.jobNumber(),
                commit.store(),
                files,
                dtype,
                rowShape,
                kept,
                java.broadcast(new SerializableConfiguration(commit.configuration())));
    }

    /** No: the commit protocol asks Spark's output commit coordinator at each task's commit, as Spark's writers do. */
    @Override
    public boolean useCommitCoordinator() {
        return false;
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
        long[] dims = new long[row.rank() + 1];
        dims[0] = next;
        System.arraycopy(row.dims(), 0, dims, 1, row.rank());
        Shape shape = Shape.of(dims);
        ArrayLayout layout = null;
        if (files.array().isPresent()) {
            layout = SinkArrays.layout(files, dtype, next, row);
            long block = SinkArrays.blockRows(layout);
            for (WrittenPart part : parts.subList(0, Math.max(0, parts.size() - 1))) {
                if ((part.firstRow() + part.rows()) % block != 0) {
                    abort(messages);
                    throw SinkArrays.notWholeChunks(part.firstRow(), part.firstRow() + part.rows(), block);
                }
            }
        }
        try {
            FileSystem fileSystem = directory.getFileSystem(commit.configuration());
            commit.commit(
                    parts.stream().map(WrittenPart::message).toList(),
                    parts.stream()
                            .flatMap(part -> part.objects().stream())
                            .map(WrittenObject::key)
                            .collect(Collectors.toSet()),
                    files.array().map(ArrayFileFormat::metadataName));
            List<DatasetFile> entries = layout == null ? nameFiles(fileSystem, parts) : listArray(parts, layout);
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
                    files.format().name(),
                    files.codecName(),
                    parts.size(),
                    entries,
                    kept.stream()
                            .map(column -> new Manifest.KeptColumnEntry(column.name(), column.typeName()))
                            .toList(),
                    files.settings().rowLayout().layoutName());
            Store store = commit.store();
            if (layout != null) {
                ArrayFileFormat array = files.array().orElseThrow();
                store.publish(fileSystem, directory, array.metadataName(), array.metadata(layout));
            }
            store.publish(fileSystem, directory, Manifest.FILE_NAME, ManifestJson.toBytes(manifest));
            store.publish(fileSystem, directory, Manifest.SUCCESS_FILE_NAME, new byte[0]);
        } catch (IOException e) {
            throw new DatasetException("Cannot finish dataset '" + location + "': " + Reasons.of(e));
        }
    }

    /**
     * The committed part files named {@code part-NNNNN} in row order, as {@code expand} names its partitions' (a
     * task's file is named by its partition: a file is renamed only where partitions of no rows, or out of row order,
     * came before it; on S3 a rename is a copy), and their manifest entries.
     */
    private List<DatasetFile> nameFiles(FileSystem fileSystem, List<WrittenPart> parts) throws IOException {
        List<DatasetFile> entries = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            WrittenPart part = parts.get(i);
            WrittenObject file = part.objects().get(0);
            String name = Manifest.partFileName(i, part.extension());
            if (!name.equals(file.key())) {
                Path to = new Path(directory, name);
                if (!fileSystem.rename(new Path(directory, file.key()), to)) {
                    throw new IOException("cannot rename " + file.key() + " to " + name);
                }
            }
            entries.add(entry(name, i, part.firstRow(), part.rows(), file.bytes(), file.crc32c(), part));
        }
        return entries;
    }

    /**
     * The committed array objects' manifest entries as {@code expand} lists an array's:
     * the rows from the end of the last object listed to a partition's end on the partition's first object (so a
     * partition whose every chunk was the fill value, and wrote none, has its rows on the next object), then the
     * metadata, holding the rows after the last object.
     */
    private List<DatasetFile> listArray(List<WrittenPart> parts, ArrayLayout layout) {
        List<DatasetFile> entries = new ArrayList<>();
        long listed = 0;
        for (int i = 0; i < parts.size(); i++) {
            WrittenPart part = parts.get(i);
            for (int j = 0; j < part.objects().size(); j++) {
                WrittenObject object = part.objects().get(j);
                long end = j == 0 ? part.firstRow() + part.rows() : listed;
                entries.add(entry(object.key(), i, listed, end - listed, object.bytes(), object.crc32c(), part));
                listed = end;
            }
        }
        byte[] metadata = files.array().orElseThrow().metadata(layout);
        CRC32C crc = new CRC32C();
        crc.update(metadata);
        WrittenPart last = parts.isEmpty() ? null : parts.get(parts.size() - 1);
        entries.add(new DatasetFile(
                files.array().orElseThrow().metadataName(),
                Math.max(0, parts.size() - 1),
                listed,
                layout.shape().rank() == 0 ? 0 : layout.shape().dim(0) - listed,
                metadata.length,
                Crc32c.hex(crc.getValue()),
                last == null ? "driver" : last.executorId(),
                last == null ? "localhost" : last.host(),
                new SourceRead(0, 0, 0)));
        return entries;
    }

    private static DatasetFile entry(
            String name, long partition, long firstRow, long rows, long bytes, String crc32c, WrittenPart part) {
        return new DatasetFile(
                name,
                partition,
                firstRow,
                rows,
                bytes,
                crc32c,
                part.executorId(),
                part.host(),
                new SourceRead(part.firstRow(), part.rows(), 0));
    }

    @Override
    public void abort(WriterCommitMessage[] messages) {
        try {
            if (commit != null) {
                commit.abort();
            }
            FileSystem fileSystem = directory.getFileSystem(conf);
            if (created && fileSystem.listStatus(directory).length == 0) {
                fileSystem.delete(directory, false);
            }
        } catch (IOException | RuntimeException e) {
            // the job's failure is what the user is told; no _SUCCESS marks the dataset unfinished
        }
    }

    /** The columns after {@code index} and {@code tensor}: kept next to each row, as {@code expand --keep} keeps them. */
    private List<KeptColumn> kept(StructType schema) {
        List<KeptColumn> kept = new ArrayList<>();
        for (StructField field : Arrays.asList(schema.fields()).subList(2, schema.fields().length)) {
            kept.add(KeptSparkTypes.column(field)
                    .orElseThrow(() -> new InvalidRequestException("Cannot keep column '" + field.name() + "' of "
                            + field.dataType().simpleString() + ": expected " + KeptColumn.ACCEPTED)));
        }
        if (!kept.isEmpty() && files.array().isPresent()) {
            throw new InvalidRequestException(
                    "Cannot keep columns " + kept.stream().map(KeptColumn::name).toList()
                            + " in format zarr: an array holds the tensor's values only; write arrow or parquet, or select"
                            + " index and tensor alone");
        }
        return List.copyOf(kept);
    }

    /** The element type of the tensor column, which our writers take. */
    private static DType dtype(StructType schema) {
        List<String> names = Arrays.asList(schema.fieldNames());
        if (names.size() < 2
                || !names.subList(0, 2).equals(List.of(TensorFileSchema.INDEX_COLUMN, TensorFileSchema.TENSOR_COLUMN))
                || schema.apply(0).dataType() != DataTypes.LongType
                || !(schema.apply(1).dataType() instanceof ArrayType array)) {
            throw new InvalidRequestException("Cannot write a tensorbroadcast dataset of " + schema.simpleString()
                    + ": expected index bigint, tensor array<number>, then any columns to keep");
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
