package dev.tensorbroadcast.arrowio.format.arrow;

import dev.tensorbroadcast.arrowio.FixedShapeTensorType;
import dev.tensorbroadcast.arrowio.format.DatasetChunk;
import dev.tensorbroadcast.arrowio.format.DatasetColumn;
import dev.tensorbroadcast.arrowio.format.DatasetPart;
import dev.tensorbroadcast.arrowio.format.FirstRowValues;
import dev.tensorbroadcast.arrowio.format.HadoopChannel;
import dev.tensorbroadcast.arrowio.format.IndexColumn;
import dev.tensorbroadcast.arrowio.format.KeptReader;
import dev.tensorbroadcast.arrowio.format.OtherColumn;
import dev.tensorbroadcast.arrowio.format.PartFooter;
import dev.tensorbroadcast.arrowio.format.SliceBuffer;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.arrowio.format.SourceLimits;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.kept.HuggingFaceFeatures;
import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.arrowio.kept.KeptRows;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.ExtensionTypeVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.message.ArrowBlock;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Arrow IPC files and streams of a dataset: the footer (or a stream's message headers, {@link StreamMessages}) and
 * each record batch's message header give the rows without reading the bodies; a slice loads only the record batches
 * that hold its rows and copies each batch's run of rows at once.
 */
public final class ArrowParts {
    private ArrowParts() {}

    /**
     * Whether one Arrow IPC file or stream given as an input is read as a dataset of one file (planned from its
     * headers, read in slices or shipped, its other columns kept), as one Parquet file is, rather than whole onto the
     * heap: a stream whose column holds rows of numbers, which tasks find by offset, or a file whose column is a list
     * whose length the file does not fix (the heap reader takes no lists). Only the schema is read; a file this
     * cannot tell about is left to the heap reader, which says what is wrong with it.
     */
    public static boolean readAsDataset(FileSystem fileSystem, Path path, long length, Optional<String> requested)
            throws IOException {
        String name = path.toString();
        FixedShapeTensorType.register();
        HadoopChannel channel = new HadoopChannel(fileSystem.open(path), length);
        try (BufferAllocator allocator = new RootAllocator(SourceLimits.DEFAULT_MAX_HEAP_BYTES);
                IpcBatches batches = IpcBatches.schemaOnly(name, channel, allocator)) {
            List<Field> fields = batches.root().getSchema().getFields();
            Field field = fields.get(ArrowSourceReader.chooseColumn(
                    name, fields.stream().map(Field::getName).toList(), requested));
            if (!batches.stream()) {
                return ArrowDatasetColumn.isVariableList(field.getType());
            }
            ArrowDatasetColumn.of(name, field);
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    public static PartFooter footer(FileSystem fileSystem, Path path, long length, Optional<String> requested)
            throws IOException {
        String name = path.toString();
        FixedShapeTensorType.register();
        HadoopChannel channel = new HadoopChannel(fileSystem.open(path), length);
        boolean stream = false;
        try (BufferAllocator allocator = new RootAllocator(SourceLimits.DEFAULT_MAX_HEAP_BYTES);
                IpcBatches batches = IpcBatches.index(name, channel, allocator)) {
            stream = batches.stream();
            VectorSchemaRoot root = batches.root();
            List<Field> fields = root.getSchema().getFields();
            int chosen = ArrowSourceReader.chooseColumn(
                    name, fields.stream().map(Field::getName).toList(), requested);
            DatasetColumn column = ArrowDatasetColumn.of(name, fields.get(chosen));
            int indexAt = ArrowSourceReader.indexColumn(name, fields);
            List<DatasetChunk> chunks = new ArrayList<>();
            int firstFilled = -1;
            long firstRowValues = FirstRowValues.UNKNOWN;
            for (int i = 0; i < batches.blocks().size(); i++) {
                ArrowBlock block = batches.blocks().get(i);
                RecordBatch batch = batches.header(name, channel, i);
                chunks.add(new DatasetChunk(
                        batch.length(),
                        block.getMetadataLength() + block.getBodyLength(),
                        batches.stream() ? block.getOffset() : -1));
                if (firstFilled < 0 && batch.length() > 0) {
                    firstFilled = i;
                    if (column.fileRowShape() == null) {
                        // a list the file does not fix the length of: its first row tells whether --row-shape fits
                        firstRowValues = ArrowFirstRow.arrow(channel, block, batch, fields, chosen, allocator);
                    }
                }
            }
            long firstIndex = -1;
            if (indexAt >= 0 && firstFilled >= 0) {
                batches.load(firstFilled);
                BigIntVector index = (BigIntVector) root.getVector(indexAt);
                firstIndex = index.isNull(0) ? -1 : index.get(0);
            }
            List<OtherColumn> others = new ArrayList<>();
            Map<String, String> schemaMetadata = root.getSchema().getCustomMetadata();
            Map<String, String> features = HuggingFaceFeatures.parse(
                    schemaMetadata == null ? null : schemaMetadata.get(HuggingFaceFeatures.KEY));
            for (int i = 0; i < fields.size(); i++) {
                if (i != chosen && i != indexAt) {
                    Field field = fields.get(i);
                    others.add(OtherColumn.of(
                            field.getName(),
                            KeptArrowValues.typeName(field, batches.dictionaries()),
                            HuggingFaceFeatures.withFeature(
                                    KeptArrowValues.kept(field, batches.dictionaries()), features)));
                }
            }
            return new PartFooter(column, indexAt >= 0, chunks, firstIndex, others, firstRowValues);
        } catch (SourceFormatException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            // Arrow Java's words for a file that starts like one and is not (no footer, bad magic at the end)
            throw new SourceFormatException(
                    name,
                    "it is not a readable Arrow IPC " + (stream ? "stream" : "file")
                            + ": "
                            + String.valueOf(e.getMessage()).lines().findFirst().orElse(""),
                    e);
        }
    }

    /**
     * Copies file rows {@code [from, to)} into {@code out} from row {@code outRow} on, loading only the batches that
     * hold them.
     */
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
        Path path = new Path(part.path());
        FixedShapeTensorType.register();
        HadoopChannel channel = new HadoopChannel(fileSystem.open(path), part.fileBytes());
        try (BufferAllocator allocator = new RootAllocator(SourceLimits.DEFAULT_MAX_HEAP_BYTES);
                IpcBatches batches = IpcBatches.open(part, channel, allocator)) {
            VectorSchemaRoot root = batches.root();
            List<ArrowBlock> blocks = batches.blocks();
            long[] dims = dataset.rowShape().dims();
            long innerDim = dims.length == 0 ? 1 : dims[dims.length - 1];
            List<Field> fields = root.getSchema().getFields();
            int columnAt = fields.stream().map(Field::getName).toList().indexOf(dataset.column());
            int indexAt = dataset.indexed() ? ArrowSourceReader.indexColumn(name, fields) : -1;
            long start = 0;
            for (int i = 0; i < blocks.size() && start < to; i++) {
                long end = start + part.chunks().get(i).rows();
                if (end > from) {
                    batches.load(i);
                    if (root.getRowCount() != end - start) {
                        throw new SourceFormatException(
                                name,
                                "record batch " + i + " has " + root.getRowCount() + " rows, not the " + (end - start)
                                        + " its header said");
                    }
                    int first = (int) (Math.max(from, start) - start);
                    int last = (int) (Math.min(to, end) - start);
                    long target = outRow + Math.max(from, start) - from;
                    copyRows(name, root.getVector(columnAt), first, last, start, out, target, innerDim);
                    if (indexAt >= 0) {
                        checkIndex(name, (BigIntVector) root.getVector(indexAt), first, last, part.firstRow() + start);
                    }
                }
                start = end;
            }
        }
    }

    /** Copies batch rows {@code [first, last)} ({@code fileRow} is the file row of batch row 0). */
    private static void copyRows(
            String name,
            FieldVector vector,
            int first,
            int last,
            long fileRow,
            SliceBuffer out,
            long outRow,
            long innerDim) {
        FieldVector storage =
                vector instanceof ExtensionTypeVector<?> extension ? extension.getUnderlyingVector() : vector;
        long rowElements = out.rowElements();
        FieldVector data;
        long firstValue;
        if (storage instanceof FixedSizeListVector list) {
            if (FixedLists.rowValues(list) != rowElements) {
                throw new SourceFormatException(
                        name,
                        "rows of " + FixedLists.rowValues(list) + " values do not fit" + " rows of " + rowElements
                                + " elements");
            }
            checkRowsPresent(name, list, first, last, fileRow);
            data = FixedLists.values(name, list, first, last, fileRow);
            firstValue = first * rowElements;
        } else if (ListRows.isList(storage)) {
            checkRowsPresent(name, storage, first, last, fileRow);
            ListRows.Run run = ListRows.run(name, storage, first, last, fileRow, rowElements, innerDim);
            data = run.values();
            firstValue = run.firstValue();
        } else if (ListRows.isListView(storage)) {
            // a list view's rows lie anywhere in its values, in any order: one copy per row
            checkRowsPresent(name, storage, first, last, fileRow);
            for (int row = first; row < last; row++) {
                ListRows.Run run = ListRows.viewRow(name, storage, row, fileRow, rowElements);
                copyValues(name, run.values(), run.firstValue(), rowElements, out, outRow + row - first);
            }
            return;
        } else {
            throw new SourceFormatException(
                    name, "column '" + vector.getName() + "' is stored as " + storage.getMinorType() + ", not a list");
        }
        copyValues(name, data, firstValue, (last - first) * rowElements, out, outRow);
    }

    /** Copies {@code count} values of {@code data} from {@code firstValue} on into {@code out} at row {@code outRow}. */
    private static void copyValues(
            String name, FieldVector data, long firstValue, long count, SliceBuffer out, long outRow) {
        long rowElements = out.rowElements();
        int width = out.width();
        long bytes = count * width;
        ArrowBuf buffer = data.getDataBuffer();
        if (buffer.capacity() < (firstValue + count) * width) {
            throw new SourceFormatException(name, "a record batch holds fewer values than its rows need");
        }
        buffer.getBytes(firstValue * width, out.values(), out.offset(outRow, 0), (int) bytes);
        if (data.getNullCount() > 0) {
            for (long k = 0; k < count; k++) {
                if (data.isNull((int) (firstValue + k))) {
                    out.setNull(outRow + k / rowElements, k % rowElements);
                }
            }
        }
    }

    private static void checkRowsPresent(String name, FieldVector list, int first, int last, long fileRow) {
        if (list.getNullCount() == 0) {
            return;
        }
        for (int row = first; row < last; row++) {
            if (list.isNull(row)) {
                throw new SourceFormatException(name, "row " + (fileRow + row) + " is null; every row needs values");
            }
        }
    }

    /** The index of batch row {@code r} must be {@code firstIndex + r}: rows run consecutively within a file. */
    private static void checkIndex(String name, BigIntVector index, int first, int last, long firstIndex) {
        for (int row = first; row < last; row++) {
            long expected = firstIndex + row;
            if (index.isNull(row) || index.get(row) != expected) {
                throw IndexColumn.notConsecutive(name, expected, index.isNull(row) ? null : index.get(row));
            }
        }
    }

    /** Copies file rows {@code [from, to)} of the kept columns into {@code kept} from row {@code at} on. */
    public static void readKept(FileSystem fileSystem, DatasetPart part, KeptRows kept, long from, long to, int at)
            throws IOException {
        FixedShapeTensorType.register();
        HadoopChannel channel = new HadoopChannel(fileSystem.open(new Path(part.path())), part.fileBytes());
        try (BufferAllocator allocator = new RootAllocator(SourceLimits.DEFAULT_MAX_HEAP_BYTES);
                IpcBatches batches = IpcBatches.open(part, channel, allocator)) {
            VectorSchemaRoot root = batches.root();
            List<String> names =
                    root.getSchema().getFields().stream().map(Field::getName).toList();
            int[] columnAt = new int[kept.columns().size()];
            for (int c = 0; c < columnAt.length; c++) {
                KeptColumn column = kept.columns().get(c);
                columnAt[c] = names.indexOf(column.name());
                if (columnAt[c] < 0
                        || !KeptArrowValues.kept(root.getSchema().getFields().get(columnAt[c]), batches.dictionaries())
                                .map(column::sameValuesAs)
                                .orElse(false)) {
                    throw KeptReader.missing(part, column);
                }
            }
            List<ArrowBlock> blocks = batches.blocks();
            long start = 0;
            for (int i = 0; i < blocks.size() && start < to; i++) {
                long end = start + part.chunks().get(i).rows();
                if (end > from) {
                    batches.load(i);
                    int first = (int) (Math.max(from, start) - start);
                    int last = (int) (Math.min(to, end) - start);
                    int target = (int) (at + Math.max(from, start) - from);
                    for (int c = 0; c < columnAt.length; c++) {
                        FieldVector source = root.getVector(columnAt[c]);
                        KeptArrowValues.copy(
                                source, source.getField(), batches.dictionaries(), first, last, kept.vector(c), target);
                    }
                }
                start = end;
            }
        }
    }
}
