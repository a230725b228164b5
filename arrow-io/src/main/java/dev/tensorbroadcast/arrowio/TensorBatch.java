package dev.tensorbroadcast.arrowio;

import static dev.tensorbroadcast.arrowio.TensorFileSchema.INDEX_COLUMN;
import static dev.tensorbroadcast.arrowio.TensorFileSchema.TENSOR_COLUMN;
import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.kept.KeptBatch;
import dev.tensorbroadcast.arrowio.kept.KeptOutput;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Partition;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.TooLargeException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The vectors of one output file ({@code index} and {@code tensor}), allocated once for the largest batch and
 * refilled by the kernel for each batch, whichever format then writes them. Close it: the thread keeps its vectors
 * for the next batch of the same schema (one set per thread).
 */
public final class TensorBatch implements AutoCloseable {
    /** Bytes of values per batch (an Arrow record batch, a Parquet row group) unless told otherwise: 32 MiB. */
    public static final long DEFAULT_BATCH_BYTES = 32L << 20;

    /**
     * Rows per batch: about {@code batchBytes} of values and indexes, at least 1, within Arrow's int32 limits.
     *
     * @throws TooLargeException when one row of strings may need more bytes than an Arrow batch holds
     */
    public static int rowsPerBatch(
            long batchBytes, DType dtype, Shape rowShape, int maxStringBytes, long partitionRows) {
        long rowElements = rowShape.elements();
        long valueBytes;
        long storageElements = rowElements * ArrowDTypes.valuesPerElement(dtype);
        if (dtype == DType.BOOL) {
            valueBytes = (rowElements + 7) / 8;
        } else if (dtype == DType.STRING) {
            // the longest string bounds the data of any batch without counting it first
            valueBytes = rowElements * (4L + maxStringBytes);
            if (rowElements * (long) maxStringBytes > Integer.MAX_VALUE) {
                throw new TooLargeException("Cannot write rows of shape " + rowShape.toList() + " of strings: with "
                        + "the longest string of " + maxStringBytes + " bytes a row may need "
                        + rowElements * (long) maxStringBytes + " bytes, more than the " + Integer.MAX_VALUE
                        + " an Arrow batch holds; a smaller partition size gives smaller rows");
            }
        } else {
            valueBytes = rowElements * dtype.byteWidth();
        }
        long rows = Math.max(1, batchBytes / (8 + valueBytes + (rowElements + 7) / 8));
        rows = Math.min(rows, Math.max(1, partitionRows));
        if (storageElements > 0) {
            rows = Math.min(rows, Math.max(1, (Integer.MAX_VALUE - 1) / storageElements));
        }
        if (dtype == DType.STRING && maxStringBytes > 0) {
            rows = Math.min(rows, Math.max(1, Integer.MAX_VALUE / (rowElements * maxStringBytes)));
        }
        return (int) Math.min(rows, Integer.MAX_VALUE - 1);
    }

    private final TensorKernel kernel;
    private final Partition partition;
    private final int rowsPerBatch;
    private final int capacityRows;
    private final BufferAllocator allocator;
    private final VectorSchemaRoot root;
    private final long rowElements;
    private final BigIntVector index;
    private final FieldVector values;
    /** The writer that may hold a batch's tensor compressed already, or null. */
    private Repeats repeats;
    /** The kept columns' vectors and the root of every column, or null when no column is kept. */
    private KeptBatch kept;

    private VectorSchemaRoot columns;

    /**
     * The vectors of the last batch this thread closed, kept for the next file of the same schema: new memory costs
     * about 0.5 s/GiB on first touch here, and every file would otherwise allocate (and the allocator return to the
     * system) its whole batch again. One set per thread, so memory stays bounded by threads times the batch size.
     */
    private static final ThreadLocal<Spare> SPARE = new ThreadLocal<>();

    /** Vectors allocated for {@code rows} rows of {@code schema}, with the allocator that owns them. */
    private record Spare(Schema schema, int rows, BufferAllocator allocator, VectorSchemaRoot root) {
        void close() {
            try {
                root.close();
            } finally {
                allocator.close();
            }
        }
    }

    private TensorBatch(
            TensorKernel kernel,
            Partition partition,
            int rowsPerBatch,
            BufferAllocator allocator,
            VectorSchemaRoot root,
            int capacityRows,
            boolean fresh) {
        this.kernel = kernel;
        this.partition = partition;
        this.rowsPerBatch = rowsPerBatch;
        this.capacityRows = capacityRows;
        this.allocator = allocator;
        this.root = root;
        DType dtype = kernel.dtype();
        this.rowElements = partition.rowElements();
        this.index = (BigIntVector) root.getVector(INDEX_COLUMN);
        FieldVector tensor = root.getVector(TENSOR_COLUMN);
        FixedSizeListVector list = tensor instanceof FixedShapeTensorVector vector
                ? vector.getUnderlyingVector()
                : (FixedSizeListVector) tensor;
        this.values = list.getDataVector();
        if (!fresh) {
            // every fill rewrites the values and their validity; the index and row validity stay all ones
            return;
        }
        index.allocateNew(rowsPerBatch);
        list.setInitialCapacity(rowsPerBatch);
        list.allocateNew();
        int storageElements = (int) (rowsPerBatch * rowElements * ArrowDTypes.valuesPerElement(dtype));
        if (values instanceof VarCharVector strings) {
            strings.allocateNew(Math.max(1, (long) storageElements * kernel.maxStringBytes()), storageElements);
        }
        // neither rows nor indexes are ever null: their validity is set once for every batch
        index.getValidityBuffer().setOne(0, index.getValidityBuffer().capacity());
        list.getValidityBuffer().setOne(0, list.getValidityBuffer().capacity());
    }

    /**
     * Vectors for writing {@code partition} of the kernel's output in batches of about {@code batchBytes}, allocated
     * once for the largest batch. Checks that the partition's rows are {@code rowShape} and lie inside the output.
     */
    public static TensorBatch allocate(TensorKernel kernel, Shape rowShape, Partition partition, long batchBytes) {
        return allocate(kernel, rowShape, partition, batchBytes, Optional.empty());
    }

    /** As above, with the {@code kept} columns after {@code index} and {@code tensor}, filled with every batch. */
    public static TensorBatch allocate(
            TensorKernel kernel, Shape rowShape, Partition partition, long batchBytes, Optional<KeptOutput> kept) {
        requireNonNull(kept, "kept is null");
        TensorBatch batch = allocateTensor(kernel, rowShape, partition, batchBytes);
        if (kept.isPresent()) {
            try {
                batch.keep(kept.get());
            } catch (RuntimeException | Error e) {
                batch.close();
                throw e;
            }
        }
        return batch;
    }

    private void keep(KeptOutput output) {
        kept = KeptBatch.allocate(output.rows(), output.lineage(), rowsPerBatch);
        List<Field> fields = new ArrayList<>(root.getSchema().getFields());
        List<FieldVector> vectors = new ArrayList<>(root.getFieldVectors());
        output.columns().forEach(column -> fields.add(column.field()));
        vectors.addAll(kept.vectors());
        columns = new VectorSchemaRoot(fields, vectors, 0);
    }

    private static TensorBatch allocateTensor(
            TensorKernel kernel, Shape rowShape, Partition partition, long batchBytes) {
        requireNonNull(kernel, "kernel is null");
        requireNonNull(rowShape, "rowShape is null");
        requireNonNull(partition, "partition is null");
        long rowElements = rowShape.elements();
        if (rowElements != partition.rowElements()) {
            throw new IllegalArgumentException("Cannot write partition " + partition.index() + ": its rows have "
                    + partition.rowElements() + " elements but row shape " + rowShape.toList() + " has " + rowElements);
        }
        if (partition.endElement() > kernel.program().elements()) {
            throw new IllegalArgumentException(
                    "Cannot write partition " + partition.index() + ": it ends at element " + partition.endElement()
                            + " of an output of " + kernel.program().elements());
        }
        int rowsPerBatch =
                rowsPerBatch(batchBytes, kernel.dtype(), rowShape, kernel.maxStringBytes(), partition.rowCount());
        Schema schema = TensorFileSchema.schema(kernel.dtype(), rowShape);
        Spare spare = SPARE.get();
        if (spare != null) {
            SPARE.remove();
            // strings are sized by the source's longest string, so their data buffer is not reused
            if (spare.schema().equals(schema) && spare.rows() >= rowsPerBatch && kernel.dtype() != DType.STRING) {
                return new TensorBatch(
                        kernel, partition, rowsPerBatch, spare.allocator(), spare.root(), spare.rows(), false);
            }
            spare.close();
        }
        BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot root = null;
        try {
            root = VectorSchemaRoot.create(schema, allocator);
            return new TensorBatch(kernel, partition, rowsPerBatch, allocator, root, rowsPerBatch, true);
        } catch (RuntimeException | Error e) {
            if (root != null) {
                root.close();
            }
            allocator.close();
            throw e;
        }
    }

    /** Writes one filled batch of {@code rows} rows, the output's rows from {@code firstRow} on. */
    @FunctionalInterface
    public interface BatchWriter {
        void write(long firstRow, int rows) throws IOException;
    }

    /** A writer that keeps what earlier batches' tensors became and reuses it for batches of the same values. */
    public interface Repeats {
        /**
         * Called before rows {@code [firstRow, firstRow + rows)} are filled: true when the writer will take these
         * rows' tensor values from an earlier batch and never read them, so they need not be filled.
         */
        boolean before(long firstRow, int rows);
    }

    /** Asks {@code repeats} before every fill whether the tensor's values are needed. */
    public void repeatWith(Repeats repeats) {
        this.repeats = requireNonNull(repeats, "repeats is null");
    }

    /** Fills the partition batch by batch, in row order, and hands each batch to {@code writer}; returns the count. */
    public int writeAll(BatchWriter writer) throws IOException {
        requireNonNull(writer, "writer is null");
        int batches = 0;
        for (long row = partition.firstRow(); row < partition.endRow(); row += rowsPerBatch) {
            int rows = (int) Math.min(rowsPerBatch, partition.endRow() - row);
            fill(row, rows);
            writer.write(row, rows);
            batches++;
        }
        return batches;
    }

    /**
     * Fills rows {@code [firstRow, firstRow + rows)} of the output into the vectors, from index 0, and sets the
     * root's row count (hence every vector's value count) to {@code rows}.
     */
    public void fill(long firstRow, int rows) {
        if (rows < 0 || rows > rowsPerBatch) {
            throw new IllegalArgumentException("Cannot fill " + rows + " rows: a batch holds 0 to " + rowsPerBatch);
        }
        long address = index.getDataBuffer().memoryAddress();
        for (int i = 0; i < rows; i++) {
            MemoryUtil.putLong(address + ((long) i << 3), firstRow + i);
        }
        long start = firstRow * rowElements;
        long end = start + rows * rowElements;
        boolean repeated = repeats != null && repeats.before(firstRow, rows);
        kernel.fillStorageValidity(start, end, values.getValidityBuffer());
        // the last byte's bits past the batch's values: a spare batch still holds its last file's bits there, which
        // made a file's bytes depend on what its thread had written before (a driver's tasks in one thread, a Spark
        // task after another on the same executor thread, wrote other bytes than a fresh batch)
        long storageBits = (end - start) * (ArrowDTypes.isComplex(kernel.dtype()) ? 2 : 1);
        Bits.fill(values.getValidityBuffer().memoryAddress(), storageBits, (8 - (storageBits & 7)) & 7, false);
        if (values instanceof VarCharVector strings) {
            // offsets size the data buffer when the value count is set, so strings are always filled
            kernel.fillStringOffsets(start, end, strings.getOffsetBuffer());
            kernel.fillStringData(start, end, strings.getOffsetBuffer(), strings.getDataBuffer());
            strings.setLastSet((int) (end - start) - 1);
        } else if (!repeated || kernel.source().hasNulls()) {
            // a writer told which values have nulls reads the values to encode them, so they are filled
            kernel.fillValues(start, end, values.getDataBuffer());
        }
        root.setRowCount(rows);
        if (kept != null) {
            kept.fill(firstRow, rows);
            columns.setRowCount(rows);
        }
    }

    /**
     * The vectors: {@code index}, {@code tensor} and any kept columns, {@link VectorSchemaRoot#getRowCount} rows
     * after a fill.
     */
    public VectorSchemaRoot root() {
        return columns != null ? columns : root;
    }

    /** The kept columns' vectors, in order; empty when none are kept. */
    public List<FieldVector> kept() {
        return kept == null ? List.of() : kept.vectors();
    }

    public TensorKernel kernel() {
        return kernel;
    }

    /** Output elements per row. */
    public long rowElements() {
        return rowElements;
    }

    /** The tensor column's buffers: the list's validity, then its values' validity and data (offsets for strings). */
    public List<ArrowBuf> tensorBuffers() {
        FieldVector tensor = root.getVector(TENSOR_COLUMN);
        FixedSizeListVector list = tensor instanceof FixedShapeTensorVector vector
                ? vector.getUnderlyingVector()
                : (FixedSizeListVector) tensor;
        return values instanceof VarCharVector strings
                ? List.of(
                        list.getValidityBuffer(),
                        strings.getValidityBuffer(),
                        strings.getOffsetBuffer(),
                        strings.getDataBuffer())
                : List.of(list.getValidityBuffer(), values.getValidityBuffer(), values.getDataBuffer());
    }

    public int rowsPerBatch() {
        return rowsPerBatch;
    }

    /** The {@code index} column: after a fill, the rows' numbers as little-endian int64s from index 0. */
    public BigIntVector index() {
        return index;
    }

    /** The tensor column's values: the list's child vector, {@code rows * rowElements} entries after a fill. */
    public FieldVector values() {
        return values;
    }

    /** Keeps the vectors for this thread's next batch of the same schema (see {@link #SPARE}). */
    @Override
    public void close() {
        if (kept != null) {
            kept.close();
            kept = null;
        }
        Spare previous = SPARE.get();
        if (previous != null) {
            if (previous.root() == root) {
                return;
            }
            previous.close();
        }
        SPARE.set(new Spare(root.getSchema(), capacityRows, allocator, root));
    }
}
