package dev.tensorbroadcast.arrowio.source;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.FixedShapeTensorType;
import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.arrowio.kept.KeptParquetValues;
import dev.tensorbroadcast.arrowio.kept.KeptRows;
import dev.tensorbroadcast.arrowio.parquet.SizedInputFile;
import dev.tensorbroadcast.planner.SourceRows;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.message.ArrowBlock;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;


/**
 * Reads the kept columns of a range of a dataset's rows: only those columns' chunks of a Parquet file, the record
 * batches that hold the rows of an Arrow IPC file. One call per value: a kept column has one value per row.
 */
public final class KeptReader {
    private KeptReader() {}

    public static KeptRows read(TensorDataset dataset, SourceRows rows, List<KeptColumn> columns,
            Configuration conf) {
        requireNonNull(dataset, "dataset is null");
        requireNonNull(columns, "columns is null");
        if (rows.end() > dataset.rows()) {
            throw new IndexOutOfBoundsException("rows " + rows + " outside the dataset's " + dataset.rows());
        }
        KeptRows kept = KeptRows.allocate(columns, rows);
        try {
            for (DatasetPart part : dataset.partsFor(rows)) {
                long from = Math.max(rows.first(), part.firstRow()) - part.firstRow();
                long to = Math.min(rows.end(), part.endRow()) - part.firstRow();
                int at = (int) (part.firstRow() + from - rows.first());
                try {
                    Path path = new Path(part.path());
                    FileSystem fileSystem = path.getFileSystem(conf);
                    switch (part.format()) {
                        case ARROW -> readArrow(fileSystem, part, kept, from, to, at);
                        case PARQUET -> readParquet(fileSystem, part, kept, from, to, at);
                    }
                } catch (SourceFormatException e) {
                    throw e;
                } catch (IOException | RuntimeException e) {
                    throw new SourceFormatException(part.path(), "the kept columns of rows " + from + ".." + (to - 1)
                            + " cannot be read: " + String.valueOf(e.getMessage()).lines().findFirst().orElse(""), e);
                }
            }
            return kept.finish();
        } catch (RuntimeException | Error e) {
            kept.close();
            throw e;
        }
    }

    private static void readArrow(FileSystem fileSystem, DatasetPart part, KeptRows kept, long from, long to, int at)
            throws IOException {
        FixedShapeTensorType.register();
        HadoopChannel channel = new HadoopChannel(fileSystem.open(new Path(part.path())), part.fileBytes());
        try (BufferAllocator allocator = new RootAllocator(SourceLimits.DEFAULT_MAX_HEAP_BYTES);
                ArrowFileReader reader = new ArrowFileReader(channel, allocator, CommonsCompressionFactory.INSTANCE)) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            List<String> names = root.getSchema().getFields().stream().map(Field::getName).toList();
            int[] columnAt = new int[kept.columns().size()];
            for (int c = 0; c < columnAt.length; c++) {
                KeptColumn column = kept.columns().get(c);
                columnAt[c] = names.indexOf(column.name());
                if (columnAt[c] < 0 || !KeptColumn.ofArrow(root.getSchema().getFields().get(columnAt[c]))
                        .map(column::equals).orElse(false)) {
                    throw missing(part, column);
                }
            }
            List<ArrowBlock> blocks = reader.getRecordBlocks();
            long start = 0;
            for (int i = 0; i < blocks.size() && start < to; i++) {
                long end = start + part.chunks().get(i).rows();
                if (end > from) {
                    reader.loadRecordBatch(blocks.get(i));
                    int first = (int) (Math.max(from, start) - start);
                    int last = (int) (Math.min(to, end) - start);
                    int target = (int) (at + Math.max(from, start) - from);
                    for (int c = 0; c < columnAt.length; c++) {
                        FieldVector source = root.getVector(columnAt[c]);
                        FieldVector vector = kept.vector(c);
                        for (int row = first; row < last; row++) {
                            vector.copyFromSafe(row, target + row - first, source);
                        }
                    }
                }
                start = end;
            }
        }
    }

    private static void readParquet(FileSystem fileSystem, DatasetPart part, KeptRows kept, long from, long to,
            int at) throws IOException {
        try (ParquetFileReader reader = ParquetFileReader.open(new SizedInputFile(fileSystem,
                new Path(part.path()), part.fileBytes()), ParquetParts.options())) {
            FileMetaData metadata = reader.getFooter().getFileMetaData();
            MessageType schema = metadata.getSchema();
            List<Type> types = new ArrayList<>();
            for (KeptColumn column : kept.columns()) {
                if (!schema.containsField(column.name())
                        || !ParquetLeaf.keptColumn(metadata, schema.getType(column.name())).map(column::equals)
                                .orElse(false)) {
                    throw missing(part, column);
                }
                types.add(schema.getType(column.name()));
            }
            MessageType projection = new MessageType(schema.getName(), types);
            ParquetParts.forRowGroups(reader, part, projection, from, to, (group, pages, store, first, last, start) -> {
                int target = (int) (at + start + first - from);
                for (int c = 0; c < types.size(); c++) {
                    ColumnDescriptor descriptor = projection.getColumnDescription(
                            new String[] {types.get(c).getName()});
                    KeptParquetValues.read(store.getColumnReader(descriptor), kept.columns().get(c),
                            descriptor.getPrimitiveType().getPrimitiveTypeName(), descriptor.getMaxDefinitionLevel(),
                            first, last, kept.vector(c), target);
                }
            });
        }
    }

    private static SourceFormatException missing(DatasetPart part, KeptColumn column) {
        return new SourceFormatException(part.path(), "it has no column '" + column.name() + "' of "
                + column.typeName() + " to keep, which the dataset's files had when it was opened");
    }
}
