package dev.tensorbroadcast.arrowio.format.arrow;

import static dev.tensorbroadcast.arrowio.TensorFileSchema.INDEX_COLUMN;
import static dev.tensorbroadcast.arrowio.TensorFileSchema.TENSOR_COLUMN;
import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.FixedShapeTensorType;
import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.HeapInput;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.arrowio.format.SourceLimits;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowColumn.Storage;
import dev.tensorbroadcast.planner.BroadcastException;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Param;
import dev.tensorbroadcast.planner.Shape;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.util.ByteArrayReadableSeekableByteChannel;

/**
 * Reads one column of an Arrow IPC file or stream (told apart by the {@code ARROW1} magic) into a
 * {@link SourceTensor}: every record batch, concatenated, reordered by an {@code index} column when there is one.
 * See {@code docs/formats.md} for the columns accepted and how they map to tensors.
 *
 * <p>LZ4- and ZSTD-compressed bodies are decompressed. The whole source is read onto the heap first (it must fit {@link SourceLimits}), so that every length in it can
 * be checked against the bytes that really exist; Arrow's own buffers come from an allocator with the same limit.
 * Anything malformed, truncated or inconsistent is reported as one {@link SourceFormatException}.
 */
public final class ArrowSourceReader {
    /** Pass as a length when the stream's length is not known. */
    public static final long UNKNOWN_LENGTH = -1;

    private static final byte[] MAGIC = {'A', 'R', 'R', 'O', 'W', '1'};

    private final SourceLimits limits;

    public ArrowSourceReader(SourceLimits limits) {
        this.limits = requireNonNull(limits, "limits is null");
    }

    public SourceTensor read(Path path, ArrowSourceOptions options) throws IOException {
        try (InputStream in = Files.newInputStream(path)) {
            return read(String.valueOf(path.getFileName()), in, Files.size(path), options);
        }
    }

    /**
     * Reads a whole Arrow IPC file or stream; the input stream is not closed.
     *
     * @param name the file name, for messages
     * @param length the stream's length in bytes, or {@link #UNKNOWN_LENGTH}
     */
    public SourceTensor read(String name, InputStream in, long length, ArrowSourceOptions options) throws IOException {
        requireNonNull(name, "name is null");
        requireNonNull(in, "in is null");
        requireNonNull(options, "options is null");
        if (length < 0 && length != UNKNOWN_LENGTH) {
            throw new IllegalArgumentException("length must be 0 or more, or UNKNOWN_LENGTH, not " + length);
        }
        long max = limits.maxHeapBytes();
        if (length > max) {
            throw new SourceFormatException(
                    name, "the file has " + length + " bytes, more than the limit of " + max + " bytes for a source");
        }
        boolean known = length != UNKNOWN_LENGTH;
        byte[] bytes = HeapInput.read(in, known ? (int) length : (int) Math.min(max + 1, Integer.MAX_VALUE - 8), known);
        if (bytes.length > max) {
            throw new SourceFormatException(name, "the file has more than the limit of " + max + " bytes for a source");
        }
        if (known && bytes.length < length) {
            throw new SourceFormatException(
                    name, "the file should have " + length + " bytes but ends after " + bytes.length);
        }
        return read(name, bytes, options);
    }

    private SourceTensor read(String name, byte[] bytes, ArrowSourceOptions options) {
        boolean file = startsWithMagic(bytes);
        String format = file ? "Arrow IPC file" : "Arrow IPC stream";
        if (bytes.length == 0) {
            throw new SourceFormatException(name, "the file is empty; expected an Arrow IPC file or stream");
        }
        if (file) {
            if (bytes.length < 2 * 8 + 4 || !endsWithMagic(bytes)) {
                throw new SourceFormatException(
                        name, "the Arrow IPC file is truncated: it does not end with the " + "ARROW1 magic");
            }
        } else {
            IpcFraming.checkStream(name, bytes);
        }
        FixedShapeTensorType.register();
        HeapBudget budget = new HeapBudget(limits, bytes.length);
        Batches batches;
        try (BufferAllocator allocator = new RootAllocator(limits.maxHeapBytes());
                ArrowReader reader = file
                        ? checkedFileReader(name, bytes, allocator)
                        : checkedStreamReader(name, bytes, allocator)) {
            batches = readBatches(name, reader, options, budget);
        } catch (SourceFormatException e) {
            throw e;
        } catch (IOException | RuntimeException | StackOverflowError e) {
            // every byte is on the heap already, so an I/O error here is a malformed file, not a failing disk
            throw new SourceFormatException(name, "not a valid " + format + ": " + describe(e), e);
        }
        budget.release(bytes.length);
        return assemble(name, batches, options, budget);
    }

    /** Arrow's file reader, with every record batch checked before it is loaded ({@link RecordBatchCheck}). */
    private static ArrowReader checkedFileReader(String name, byte[] bytes, BufferAllocator allocator) {
        return new ArrowFileReader(
                new ByteArrayReadableSeekableByteChannel(bytes), allocator, CommonsCompressionFactory.INSTANCE) {
            @Override
            protected void loadRecordBatch(ArrowRecordBatch batch) {
                checkBeforeLoading(name, this, batch);
                super.loadRecordBatch(batch);
            }
        };
    }

    private static ArrowReader checkedStreamReader(String name, byte[] bytes, BufferAllocator allocator) {
        return new ArrowStreamReader(new ByteArrayInputStream(bytes), allocator, CommonsCompressionFactory.INSTANCE) {
            @Override
            protected void loadRecordBatch(ArrowRecordBatch batch) {
                checkBeforeLoading(name, this, batch);
                super.loadRecordBatch(batch);
            }
        };
    }

    private static void checkBeforeLoading(String name, ArrowReader reader, ArrowRecordBatch batch) {
        try {
            RecordBatchCheck.check(name, reader.getVectorSchemaRoot().getSchema(), batch);
        } catch (IOException | RuntimeException e) {
            batch.close();
            throw e instanceof SourceFormatException refused
                    ? refused
                    : new SourceFormatException(name, "not a valid Arrow IPC record batch: " + describe(e), e);
        }
    }

    /** The accumulated column and, when present, the index column. */
    private record Batches(ArrowColumn column, ColumnAccumulator values, ColumnAccumulator index) {}

    private static Batches readBatches(String name, ArrowReader reader, ArrowSourceOptions options, HeapBudget budget)
            throws IOException {
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        List<Field> fields = root.getSchema().getFields();
        int chosen = chooseColumn(name, fields.stream().map(Field::getName).toList(), options.column());
        ArrowColumn column = ArrowColumn.resolve(name, fields.get(chosen));
        int indexAt = indexColumn(name, fields);
        ColumnAccumulator values = new ColumnAccumulator(name, column, budget);
        ColumnAccumulator index = indexAt < 0
                ? null
                : new ColumnAccumulator(name, ArrowColumn.resolve(name, fields.get(indexAt)), budget);
        while (reader.loadNextBatch()) {
            values.append(root.getVector(chosen));
            if (index != null) {
                index.append(root.getVector(indexAt));
            }
        }
        return new Batches(column, values, index);
    }

    private SourceTensor assemble(String name, Batches batches, ArrowSourceOptions options, HeapBudget budget) {
        ArrowColumn column = batches.column();
        ColumnAccumulator values = batches.values();
        int stored = values.count();
        if (values.rows() > SourceLimits.MAX_HEAP_BYTES) {
            throw new SourceFormatException(
                    name,
                    "column '" + column.name() + "' has " + values.rows()
                            + " rows; a heap source holds fewer than 2^31");
        }
        int rows = (int) values.rows();
        int[] rowSource = batches.index() == null ? null : rowOrder(name, batches.index(), rows);
        byte[] data = values.values();
        int[] offsets = column.dtype() == DType.STRING ? values.offsets() : null;
        byte[] validity = values.validity();
        if (rowSource != null || column.physicalAxes() != null) {
            budget.grow(
                    name,
                    0,
                    4L * stored
                            + data.length
                            + (validity == null ? 0 : validity.length)
                            + (offsets == null ? 0 : 4L * offsets.length));
            int[] map = Gather.elementMap(rows, rowSource, column.storageShape().dims(), column.physicalAxes());
            if (column.storage() == Storage.BOOL) {
                data = Gather.bits(data, map);
            } else if (offsets != null) {
                int[] reordered = new int[offsets.length];
                data = Gather.strings(offsets, data, map, reordered);
                offsets = reordered;
            } else {
                data = Gather.fixed(data, column.width(), map);
            }
            if (validity != null) {
                validity = Gather.bits(validity, map);
            }
        }
        if (validity != null && (column.dtype() == DType.COMPLEX64 || column.dtype() == DType.COMPLEX128)) {
            validity = Gather.pairs(validity, stored / 2);
        }
        Shape shape = tensorShape(name, column, rows, options.shape());
        return column.dtype() == DType.STRING
                ? SourceTensor.strings(shape, offsets, data, validity)
                : SourceTensor.fixedWidth(column.dtype(), shape, data, validity);
    }

    private static Shape tensorShape(String name, ArrowColumn column, int rows, Optional<Shape> requested) {
        long[] rowDims = column.rowShape().dims();
        long[] dims = new long[rowDims.length + 1];
        dims[0] = rows;
        System.arraycopy(rowDims, 0, dims, 1, rowDims.length);
        Shape shape;
        try {
            shape = Shape.of(dims);
        } catch (BroadcastException e) {
            throw new SourceFormatException(name, "column '" + column.name() + "': " + e.getMessage(), e);
        }
        if (requested.isEmpty()) {
            return shape;
        }
        Shape wanted = requested.get();
        long elements;
        try {
            elements = wanted.elements();
        } catch (BroadcastException e) {
            elements = -1;
        }
        if (elements != shape.elements()) {
            throw new SourceFormatException(
                    name,
                    "cannot give column '" + column.name() + "' of shape " + shape + " (" + shape.elements()
                            + " elements) the shape " + wanted + ": the element counts differ");
        }
        return wanted;
    }

    /** The stored row of each output row: the index column must hold each of 0..rows-1 once. */
    private static int[] rowOrder(String name, ColumnAccumulator index, int rows) {
        if (index.count() != rows) {
            throw new SourceFormatException(
                    name, "the index column has " + index.count() + " values for " + rows + " rows");
        }
        if (index.anyNull()) {
            throw new SourceFormatException(
                    name, "the index column holds nulls; it must hold each of 0.." + (rows - 1) + " once");
        }
        ByteBuffer positions = ByteBuffer.wrap(index.values()).order(ByteOrder.LITTLE_ENDIAN);
        int[] source = new int[rows];
        Arrays.fill(source, -1);
        boolean ordered = true;
        for (int s = 0; s < rows; s++) {
            long position = positions.getLong(8 * s);
            if (position < 0 || position >= rows || source[(int) position] >= 0) {
                throw new SourceFormatException(
                        name,
                        "the index column is not a permutation of 0.." + (rows - 1)
                                + ": row " + s + " holds " + position
                                + (position >= 0 && position < rows ? ", which an earlier row holds too" : ""));
            }
            source[(int) position] = s;
            ordered &= position == s;
        }
        return ordered ? null : source;
    }

    /** The requested column, else the only one besides {@code index}, else the one named {@code tensor}. */
    public static int chooseColumn(String name, List<String> names, Optional<String> requested) {
        if (requested.isPresent()) {
            int at = names.indexOf(requested.get());
            if (at < 0) {
                throw new SourceFormatException(
                        name, "there is no column '" + requested.get() + "'; the columns are " + names);
            }
            if (names.lastIndexOf(requested.get()) != at) {
                throw new SourceFormatException(name, "there are several columns named '" + requested.get() + "'");
            }
            return at;
        }
        if (names.size() == 1) {
            return 0;
        }
        List<Integer> candidates = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            if (!names.get(i).equals(INDEX_COLUMN)) {
                candidates.add(i);
            }
        }
        if (candidates.size() == 1) {
            return candidates.get(0);
        }
        if (names.indexOf(TENSOR_COLUMN) >= 0 && names.indexOf(TENSOR_COLUMN) == names.lastIndexOf(TENSOR_COLUMN)) {
            return names.indexOf(TENSOR_COLUMN);
        }
        throw new SourceFormatException(
                name,
                names.isEmpty()
                        ? "the schema has no columns"
                        : "cannot tell which column holds the tensor among " + names + "; choose one with "
                                + Param.COLUMN.named() + " or name "
                                + "it '" + TENSOR_COLUMN + "'");
    }

    /** The {@code index} column that orders the rows (even when it is the column read), or -1. */
    static int indexColumn(String name, List<Field> fields) {
        for (int i = 0; i < fields.size(); i++) {
            Field field = fields.get(i);
            if (field.getName().equals(INDEX_COLUMN)) {
                if (!new ArrowType.Int(64, true).equals(field.getType()) || field.getDictionary() != null) {
                    throw new SourceFormatException(
                            name,
                            "the index column is " + field.getType()
                                    + "; it must be Int(64, signed), the position of each row");
                }
                return i;
            }
        }
        return -1;
    }

    private static String describe(Throwable e) {
        if (e instanceof StackOverflowError) {
            return "its schema is nested too deeply or cyclic";
        }
        String message = e.getMessage();
        if (message == null || message.isBlank()) {
            return e.getClass().getSimpleName();
        }
        String line = message.strip().lines().findFirst().orElse("");
        return line.length() > 300 ? line.substring(0, 300) + "..." : line;
    }

    private static boolean startsWithMagic(byte[] bytes) {
        return bytes.length >= MAGIC.length && Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length);
    }

    private static boolean endsWithMagic(byte[] bytes) {
        return Arrays.equals(bytes, bytes.length - MAGIC.length, bytes.length, MAGIC, 0, MAGIC.length);
    }
}
