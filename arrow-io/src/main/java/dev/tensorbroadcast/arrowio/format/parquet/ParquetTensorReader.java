package dev.tensorbroadcast.arrowio.format.parquet;

import dev.tensorbroadcast.arrowio.TensorColumn;
import dev.tensorbroadcast.arrowio.TensorFileSchema;
import dev.tensorbroadcast.arrowio.format.DatasetChunk;
import dev.tensorbroadcast.arrowio.format.DatasetFileReader;
import dev.tensorbroadcast.arrowio.format.DatasetPart;
import dev.tensorbroadcast.arrowio.format.ElementBatch;
import dev.tensorbroadcast.arrowio.format.FirstRowValues;
import dev.tensorbroadcast.arrowio.format.IndexColumn;
import dev.tensorbroadcast.arrowio.format.KeptReader;
import dev.tensorbroadcast.arrowio.format.PartFooter;
import dev.tensorbroadcast.arrowio.format.RowLayout;
import dev.tensorbroadcast.arrowio.format.SliceBuffer;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.arrowio.kept.KeptParquetValues;
import dev.tensorbroadcast.arrowio.kept.KeptRows;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * The one reader of Parquet files of a dataset, as pyarrow, Spark, DuckDB and this tool write them: the column is a
 * list of numbers (any of the list layouts; the Arrow schema under {@code ARROW:schema} gives a tensor column its row
 * shape). It reads a file's footer (for planning), its tensor rows and kept columns in slices (for tasks: only the row
 * groups that hold the slice's rows, and only the columns wanted), and a file this tool wrote whole, a row group per
 * batch, in any dtype ({@link #batches}, for {@code verify} and {@code export}). Every path walks the rows with
 * {@link ParquetRows} and checks the {@code index} column the same way.
 */
public final class ParquetTensorReader {
    /**
     * Options for one reader. Reads on the calling thread: vectored reads complete on other threads, where the file
     * system statistics that count a task's input do not see them. A new set per reader, because the options hold
     * the codec factory, which keeps one decompressor per codec: shared by the tasks of one executor, two tasks
     * decompressing snappy or gzip pages at once corrupted each other's pages.
     */
    static ParquetReadOptions options() {
        return ParquetReadOptions.builder().withUseHadoopVectoredIo(false).build();
    }

    private ParquetTensorReader() {}

    public static PartFooter footer(FileSystem fileSystem, Path path, long length, Optional<String> requested)
            throws IOException {
        String name = path.toString();
        ParquetReadOptions options = options();
        try (ParquetFileReader reader = ParquetFileReader.open(new SizedInputFile(fileSystem, path, length), options)) {
            ParquetLeaf leaf = ParquetLeaf.of(name, reader.getFooter().getFileMetaData(), requested);
            List<DatasetChunk> chunks = new ArrayList<>();
            for (BlockMetaData block : reader.getRowGroups()) {
                requireReadableCodec(name, block, leaf);
                chunks.add(new DatasetChunk(block.getRowCount(), bytes(block, leaf)));
            }
            long firstIndex = leaf.index() == null ? -1 : firstIndex(reader, leaf);
            // a list the file does not fix the length of: its first row tells whether --row-shape fits at all
            long firstRowValues = leaf.column().fileRowShape() == null
                    ? ParquetFirstRow.parquet(fileSystem, path, reader.getRowGroups(), leaf, options)
                    : FirstRowValues.UNKNOWN;
            return new PartFooter(
                    leaf.column(),
                    leaf.index() != null,
                    chunks,
                    firstIndex,
                    leaf.others(reader.getFooter().getFileMetaData()),
                    firstRowValues);
        } catch (SourceFormatException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            // parquet-java's words for a truncated file or a garbage footer, without the file name it repeats
            String reason = String.valueOf(e.getMessage())
                    .lines()
                    .findFirst()
                    .orElse("")
                    .replace(name + " ", "");
            throw new SourceFormatException(name, "it is not a readable Parquet file: " + reason, e);
        }
    }

    public static void read(
            FileSystem fileSystem,
            DatasetPart part,
            TensorDataset dataset,
            long from,
            long to,
            SliceBuffer out,
            long outRow)
            throws IOException {
        String name = part.path();
        try (ParquetFileReader reader =
                ParquetFileReader.open(new SizedInputFile(fileSystem, new Path(name), part.fileBytes()), options())) {
            FileMetaData metadata = reader.getFooter().getFileMetaData();
            ParquetLeaf leaf = ParquetLeaf.of(name, metadata, Optional.of(dataset.column()));
            // a page reader per file: it keeps its level and index arrays from group to group
            BulkListPages bulk = new BulkListPages(
                    name, leaf.descriptor(), leaf.rowDefinition(), leaf.entryDefinition(), out.width());
            ParquetRows.Target slice =
                    ParquetRows.into(out, leaf.descriptor().getPrimitiveType().getPrimitiveTypeName());
            forRowGroups(reader, part, leaf.projection(), from, to, (group, pages, store, first, last, start) -> {
                long target = outRow + start + first - from;
                if (BulkListPages.covers(leaf.descriptor(), chunk(group, leaf.descriptor()), out.width())) {
                    bulk.read(pages.getPageReader(leaf.descriptor()), first, last, start, out, target);
                } else {
                    ParquetRows.read(
                            name,
                            store.getColumnReader(leaf.descriptor()),
                            leaf,
                            out.rowElements(),
                            out.innerLength(),
                            first,
                            last,
                            start,
                            slice,
                            target);
                }
                if (leaf.index() != null) {
                    checkIndex(name, store.getColumnReader(leaf.index()), first, last, part.firstRow() + start);
                }
            });
        }
    }

    /** What is done with the wanted rows of one row group. */
    @FunctionalInterface
    interface RowGroupRows {
        /**
         * Group rows {@code [first, last)} are wanted; {@code start} is the file row of the group's row 0.
         * {@code store} reads the projected columns value by value, {@code pages} gives their pages.
         */
        void read(
                BlockMetaData group, PageReadStore pages, ColumnReadStoreImpl store, long first, long last, long start)
                throws IOException;
    }

    /**
     * Reads file rows {@code [from, to)} of {@code projection}'s columns row group by row group: the groups before
     * are skipped unread, reading stops after the last group holding wanted rows. The file must still have the row
     * groups {@code part} had when the dataset was opened.
     */
    static void forRowGroups(
            ParquetFileReader reader, DatasetPart part, MessageType projection, long from, long to, RowGroupRows rows)
            throws IOException {
        List<BlockMetaData> groups = reader.getRowGroups();
        if (groups.size() != part.chunks().size()) {
            throw new SourceFormatException(
                    part.path(),
                    "it has " + groups.size() + " row groups, not the "
                            + part.chunks().size() + " it had when the dataset was opened");
        }
        reader.setRequestedSchema(projection);
        String createdBy = reader.getFooter().getFileMetaData().getCreatedBy();
        long start = 0;
        for (int i = 0; i < groups.size() && start < to; i++) {
            long end = start + groups.get(i).getRowCount();
            if (end <= from) {
                reader.skipNextRowGroup();
            } else {
                PageReadStore pages = reader.readNextRowGroup();
                ColumnReadStoreImpl store = store(pages, projection, createdBy);
                rows.read(groups.get(i), pages, store, Math.max(from, start) - start, Math.min(to, end) - start, start);
            }
            start = end;
        }
    }

    /** Reads {@code projection}'s columns of one row group value by value. */
    private static ColumnReadStoreImpl store(PageReadStore pages, MessageType projection, String createdBy) {
        return new ColumnReadStoreImpl(
                pages, new GroupRecordConverter(projection).getRootConverter(), projection, createdBy);
    }

    private static ColumnChunkMetaData chunk(BlockMetaData group, ColumnDescriptor descriptor) {
        for (ColumnChunkMetaData chunk : group.getColumns()) {
            if (Arrays.equals(chunk.getPath().toArray(), descriptor.getPath())) {
                return chunk;
            }
        }
        throw new IllegalStateException("a row group has no chunk of column " + Arrays.toString(descriptor.getPath()));
    }

    private static void checkIndex(String name, ColumnReader index, long first, long last, long firstIndex) {
        int present = index.getDescriptor().getMaxDefinitionLevel();
        for (long row = 0; row < last; row++) {
            Long value = index.getCurrentDefinitionLevel() == present ? index.getLong() : null;
            index.consume();
            long expected = firstIndex + row;
            if (row >= first && (value == null || value != expected)) {
                throw IndexColumn.notConsecutive(name, expected, value);
            }
        }
    }

    /** The index of the first row: the first row group's minimum when its statistics hold one, else read. */
    private static long firstIndex(ParquetFileReader reader, ParquetLeaf leaf) throws IOException {
        List<BlockMetaData> groups = reader.getRowGroups();
        for (BlockMetaData group : groups) {
            if (group.getRowCount() == 0) {
                continue;
            }
            for (ColumnChunkMetaData chunk : group.getColumns()) {
                if (chunk.getPath().toArray()[0].equals(TensorFileSchema.INDEX_COLUMN)) {
                    Statistics<?> statistics = chunk.getStatistics();
                    if (statistics != null
                            && !statistics.isEmpty()
                            && statistics.hasNonNullValue()
                            && statistics.genericGetMin() instanceof Long min) {
                        return min;
                    }
                }
            }
            break;
        }
        MessageType indexOnly = new MessageType("index", leaf.projection().getType(TensorFileSchema.INDEX_COLUMN));
        reader.setRequestedSchema(indexOnly);
        for (BlockMetaData group : groups) {
            if (group.getRowCount() == 0) {
                reader.skipNextRowGroup();
                continue;
            }
            PageReadStore pages = reader.readNextRowGroup();
            ColumnReader index = store(
                            pages,
                            indexOnly,
                            reader.getFooter().getFileMetaData().getCreatedBy())
                    .getColumnReader(leaf.index());
            return index.getCurrentDefinitionLevel() == index.getDescriptor().getMaxDefinitionLevel()
                    ? index.getLong()
                    : -1;
        }
        return -1;
    }

    /**
     * parquet-java names Brotli and LZO but decompresses them only with codecs this build does not ship: said here,
     * while planning, rather than by a task.
     */
    private static void requireReadableCodec(String name, BlockMetaData block, ParquetLeaf leaf) {
        for (ColumnChunkMetaData chunk : block.getColumns()) {
            CompressionCodecName codec = chunk.getCodec();
            String top = chunk.getPath().toArray()[0];
            boolean read = top.equals(leaf.column().name())
                    || (leaf.index() != null && top.equals(TensorFileSchema.INDEX_COLUMN));
            if (read && (codec == CompressionCodecName.BROTLI || codec == CompressionCodecName.LZO)) {
                throw new SourceFormatException(
                        name,
                        "column '" + chunk.getPath().toDotString() + "' is compressed"
                                + " with " + codec
                                + ", which this tool cannot decompress; it reads uncompressed, SNAPPY, GZIP,"
                                + " ZSTD, LZ4 and LZ4_RAW pages: rewrite the file with one of those (pyarrow's default is"
                                + " snappy)");
            }
        }
    }

    private static long bytes(BlockMetaData block, ParquetLeaf leaf) {
        long bytes = 0;
        for (ColumnChunkMetaData chunk : block.getColumns()) {
            String top = chunk.getPath().toArray()[0];
            if (top.equals(leaf.column().name())
                    || (leaf.index() != null && top.equals(TensorFileSchema.INDEX_COLUMN))) {
                bytes += chunk.getTotalSize();
            }
        }
        return bytes;
    }

    /** Copies file rows {@code [from, to)} of the kept columns into {@code kept} from row {@code at} on. */
    public static void readKept(FileSystem fileSystem, DatasetPart part, KeptRows kept, long from, long to, int at)
            throws IOException {
        try (ParquetFileReader reader = ParquetFileReader.open(
                new SizedInputFile(fileSystem, new Path(part.path()), part.fileBytes()), options())) {
            FileMetaData metadata = reader.getFooter().getFileMetaData();
            MessageType schema = metadata.getSchema();
            List<Type> types = new ArrayList<>();
            for (KeptColumn column : kept.columns()) {
                if (!schema.containsField(column.name())
                        || !ParquetLeaf.keptColumn(metadata, schema.getType(column.name()))
                                .map(column::sameValuesAs)
                                .orElse(false)) {
                    throw KeptReader.missing(part, column);
                }
                types.add(schema.getType(column.name()));
            }
            MessageType projection = new MessageType(schema.getName(), types);
            forRowGroups(reader, part, projection, from, to, (group, pages, store, first, last, start) -> {
                int target = (int) (at + start + first - from);
                for (int c = 0; c < types.size(); c++) {
                    ColumnDescriptor descriptor = projection.getColumnDescription(
                            new String[] {types.get(c).getName()});
                    KeptParquetValues.read(
                            store.getColumnReader(descriptor),
                            kept.columns().get(c),
                            descriptor.getPrimitiveType().getPrimitiveTypeName(),
                            descriptor.getMaxDefinitionLevel(),
                            first,
                            last,
                            kept.vector(c),
                            target);
                }
            });
        }
    }

    /**
     * Opens the file at {@code path} ({@code length} bytes) for reading its tensor column whole, one row group per
     * batch: the file must be one this tool wrote, its {@code index} and tensor columns exactly what
     * {@link ParquetTensorSchema} lays out for {@code dtype} rows of {@code rowShape} in {@code layout} (its kept
     * columns, after them, are not read). Reading says in an {@link IOException} why a file is not.
     */
    public static DatasetFileReader batches(
            FileSystem fileSystem,
            Path path,
            long length,
            BufferAllocator allocator,
            DType dtype,
            Shape rowShape,
            RowLayout layout)
            throws IOException {
        ParquetTensorSchema written = new ParquetTensorSchema(
                new TensorColumn(TensorFileSchema.TENSOR_COLUMN, dtype, rowShape), List.of(), layout);
        // no task counts this read's input, so parquet-java's vectored reads may run ahead on their threads
        ParquetFileReader reader = ParquetFileReader.open(
                new SizedInputFile(fileSystem, path, length),
                ParquetReadOptions.builder().build());
        try {
            MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
            MessageType tensorPart = new MessageType(
                    fileSchema.getName(), fileSchema.getFields().subList(0, Math.min(2, fileSchema.getFieldCount())));
            if (!tensorPart.equals(written.messageType())) {
                throw new IOException("its schema is not the one for " + dtype + " rows of " + rowShape + ": found "
                        + ParquetLeaf.describe(fileSchema));
            }
            return new Batches(path.toString(), reader, written, allocator);
        } catch (IOException | RuntimeException e) {
            reader.close();
            throw e;
        }
    }

    /** A file this tool wrote, a row group at a time. */
    private static final class Batches implements DatasetFileReader {
        private final String name;
        private final ParquetFileReader reader;
        private final ParquetLeaf leaf;
        private final String createdBy;
        private final long rowElements;
        /** Entries of a row's values: two per complex element. */
        private final long rowEntries;

        private final long innerLength;
        private final ElementBatch batch;
        private final ParquetRows.BatchTarget target;
        private long fileRow;

        Batches(String name, ParquetFileReader reader, ParquetTensorSchema written, BufferAllocator allocator) {
            this.name = name;
            this.reader = reader;
            this.leaf = ParquetLeaf.ofWritten(written);
            this.createdBy = reader.getFooter().getFileMetaData().getCreatedBy();
            reader.setRequestedSchema(leaf.projection());
            Shape storage = written.column().storageShape();
            this.rowElements = written.column().rowShape().elements();
            this.rowEntries = storage.elements();
            this.innerLength = storage.rank() == 0 ? 1 : storage.dim(storage.rank() - 1);
            this.batch = new ElementBatch(allocator, written.column().dtype());
            this.target = new ParquetRows.BatchTarget(batch);
        }

        @Override
        public ElementBatch next() throws IOException {
            PageReadStore pages = reader.readNextRowGroup();
            if (pages == null) {
                return null;
            }
            int rows = Math.toIntExact(pages.getRowCount());
            ColumnReadStoreImpl store = store(pages, leaf.projection(), createdBy);
            try {
                ColumnReader index = store.getColumnReader(leaf.index());
                long firstRow = rows == 0 ? 0 : index.getLong();
                checkIndex(name, index, 0, rows, firstRow);
                batch.reset(firstRow, rows, Math.toIntExact(rows * rowElements));
                target.start();
                ColumnReader values = store.getColumnReader(leaf.descriptor());
                long consumed =
                        ParquetRows.read(name, values, leaf, rowEntries, innerLength, 0, rows, fileRow, target, 0);
                if (consumed != values.getTotalValueCount()) {
                    throw new SourceFormatException(
                            name,
                            "a row group of " + rows + " rows holds "
                                    + values.getTotalValueCount() + " list entries, "
                                    + (values.getTotalValueCount() - consumed) + " more than its rows");
                }
            } catch (SourceFormatException e) {
                // the report names the file: the reason alone
                throw new IOException(e.reason(), e);
            }
            fileRow += rows;
            return batch;
        }

        @Override
        public void close() throws IOException {
            try {
                batch.close();
            } finally {
                reader.close();
            }
        }
    }
}
