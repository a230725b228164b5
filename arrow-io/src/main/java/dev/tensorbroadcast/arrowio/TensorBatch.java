package dev.tensorbroadcast.arrowio;

import static dev.tensorbroadcast.arrowio.ArrowTensorFileWriter.INDEX_COLUMN;
import static dev.tensorbroadcast.arrowio.ArrowTensorFileWriter.TENSOR_COLUMN;

import dev.tensorbroadcast.planner.DType;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;

/**
 * The vectors of one output file ({@code index} and {@code tensor}), allocated once for the largest batch and
 * refilled by the kernel for each batch, whichever format then writes them.
 */
public final class TensorBatch {
    /** Rows per batch: about {@code batchBytes} of values and indexes, at least 1, within Arrow's int32 limits. */
    public static int rowsPerBatch(long batchBytes, DType dtype, long rowElements, int maxStringBytes,
            long partitionRows) {
        long valueBytes;
        long storageElements = rowElements * (ArrowDTypes.isComplex(dtype) ? 2 : 1);
        if (dtype == DType.BOOL) {
            valueBytes = (rowElements + 7) / 8;
        } else if (dtype == DType.STRING) {
            // the longest string bounds the data of any batch without counting it first
            valueBytes = rowElements * (4L + maxStringBytes);
            if (rowElements * (long) maxStringBytes > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("Cannot write rows of " + rowElements + " strings of up to "
                        + maxStringBytes + " bytes: a row may hold at most " + Integer.MAX_VALUE + " bytes of strings");
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

    private final DType dtype;
    private final long rowElements;
    private final BigIntVector index;
    private final FixedSizeListVector list;
    private final FieldVector values;

    /** Allocates the vectors of {@code root} for batches of up to {@code rowsPerBatch} rows. */
    public TensorBatch(VectorSchemaRoot root, DType dtype, long rowElements, int rowsPerBatch, int maxStringBytes) {
        this.dtype = dtype;
        this.rowElements = rowElements;
        this.index = (BigIntVector) root.getVector(INDEX_COLUMN);
        FieldVector tensor = root.getVector(TENSOR_COLUMN);
        this.list = tensor instanceof FixedShapeTensorVector vector ? vector.getUnderlyingVector()
                : (FixedSizeListVector) tensor;
        this.values = list.getDataVector();
        index.allocateNew(rowsPerBatch);
        list.setInitialCapacity(rowsPerBatch);
        list.allocateNew();
        int storageElements = (int) (rowsPerBatch * rowElements * (ArrowDTypes.isComplex(dtype) ? 2 : 1));
        if (values instanceof VarCharVector strings) {
            strings.allocateNew(Math.max(1, (long) storageElements * maxStringBytes), storageElements);
        }
        // neither rows nor indexes are ever null: their validity is set once for every batch
        index.getValidityBuffer().setOne(0, index.getValidityBuffer().capacity());
        list.getValidityBuffer().setOne(0, list.getValidityBuffer().capacity());
    }

    /** Fills rows {@code [firstRow, firstRow + rows)} of the output into the vectors, from index 0. */
    public void fill(TensorKernel kernel, long firstRow, int rows) {
        long address = index.getDataBuffer().memoryAddress();
        for (int i = 0; i < rows; i++) {
            MemoryUtil.putLong(address + ((long) i << 3), firstRow + i);
        }
        long start = firstRow * rowElements;
        long end = start + rows * rowElements;
        kernel.fillStorageValidity(start, end, values.getValidityBuffer());
        if (dtype == DType.STRING) {
            VarCharVector strings = (VarCharVector) values;
            kernel.fillStringOffsets(start, end, strings.getOffsetBuffer());
            kernel.fillStringData(start, end, strings.getOffsetBuffer(), strings.getDataBuffer());
            strings.setLastSet((int) (end - start) - 1);
        } else {
            kernel.fillValues(start, end, values.getDataBuffer());
        }
    }

    /** The {@code index} column: after a fill, the rows' numbers as little-endian int64s from index 0. */
    public BigIntVector index() {
        return index;
    }

    /** The tensor column's values: the list's child vector, {@code rows * rowElements} entries after a fill. */
    public FieldVector values() {
        return values;
    }
}
