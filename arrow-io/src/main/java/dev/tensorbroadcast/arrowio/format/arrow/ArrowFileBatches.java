package dev.tensorbroadcast.arrowio.format.arrow;

import dev.tensorbroadcast.arrowio.TensorColumn;
import dev.tensorbroadcast.arrowio.TensorFileSchema;
import dev.tensorbroadcast.arrowio.format.DatasetFileReader;
import dev.tensorbroadcast.arrowio.format.ElementBatch;
import dev.tensorbroadcast.arrowio.format.HadoopChannel;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.io.IOException;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.ExtensionTypeVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** Reads an Arrow IPC dataset file one record batch at a time into an {@link ElementBatch}. */
public final class ArrowFileBatches implements DatasetFileReader {
    private final ArrowFileReader reader;
    private final ElementBatch batch;
    private final DType dtype;
    private final long rowElements;

    public ArrowFileBatches(HadoopChannel channel, BufferAllocator allocator, DType dtype, Shape rowShape)
            throws IOException {
        this.reader = new ArrowFileReader(channel, allocator);
        this.dtype = dtype;
        this.rowElements = rowShape.elements();
        try {
            Schema schema = reader.getVectorSchemaRoot().getSchema();
            Field field = schema.findField(TensorFileSchema.TENSOR_COLUMN);
            TensorColumn found;
            try {
                found = TensorColumn.fromField(field);
            } catch (IllegalArgumentException e) {
                throw new IOException(e.getMessage(), e);
            }
            TensorColumn expected = new TensorColumn(TensorFileSchema.TENSOR_COLUMN, dtype, rowShape);
            if (!found.equals(expected)) {
                throw new IOException("its tensor column is " + found.dtype() + " " + found.rowShape()
                        + " but the manifest says " + dtype + " " + rowShape);
            }
            schema.findField(TensorFileSchema.INDEX_COLUMN);
        } catch (IOException | RuntimeException e) {
            reader.close();
            throw e instanceof IOException io ? io : new IOException(e.getMessage(), e);
        }
        this.batch = new ElementBatch(allocator, dtype);
    }

    @Override
    public ElementBatch next() throws IOException {
        if (!reader.loadNextBatch()) {
            return null;
        }
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        int rows = root.getRowCount();
        BigIntVector index = (BigIntVector) root.getVector(TensorFileSchema.INDEX_COLUMN);
        long firstRow = rows == 0 ? 0 : index.get(0);
        for (int row = 1; row < rows; row++) {
            if (index.get(row) != firstRow + row) {
                throw new IOException("its index column jumps from " + index.get(row - 1) + " to " + index.get(row)
                        + "; rows must be consecutive");
            }
        }
        FieldVector tensor = root.getVector(TensorFileSchema.TENSOR_COLUMN);
        if (tensor instanceof ExtensionTypeVector<?> extension) {
            tensor = (FieldVector) extension.getUnderlyingVector();
        }
        FieldVector values = ((FixedSizeListVector) tensor).getDataVector();
        int elements = Math.toIntExact(rows * rowElements);
        batch.reset(firstRow, rows, elements);
        if (dtype == DType.STRING) {
            copyStrings((VarCharVector) values, elements);
        } else {
            BaseFixedWidthVector fixed = (BaseFixedWidthVector) values;
            long bytes = batch.valueBytes(elements);
            if (bytes > 0) {
                batch.values().setBytes(0, fixed.getDataBuffer(), 0, bytes);
            }
        }
        copyValidity(values, elements);
        return batch;
    }

    private void copyValidity(FieldVector values, int elements) {
        if (values.getNullCount() == 0) {
            batch.setAllValid();
        } else if (values.getValueCount() == elements) {
            long bytes = ElementBatch.bitBytes(elements);
            batch.validity().setBytes(0, values.getValidityBuffer(), 0, bytes);
        } else {
            // complex: two stored values per element, null together
            for (int i = 0; i < elements; i++) {
                batch.setValid(i, !values.isNull(2 * i));
            }
        }
    }

    private void copyStrings(VarCharVector values, int elements) {
        ArrowBuf sourceOffsets = values.getOffsetBuffer();
        ArrowBuf offsets = batch.offsets();
        if (elements == 0) {
            offsets.setInt(0, 0);
            return;
        }
        int start = sourceOffsets.getInt(0);
        int end = sourceOffsets.getInt((long) elements * Integer.BYTES);
        for (int i = 0; i <= elements; i++) {
            offsets.setInt((long) i * Integer.BYTES, sourceOffsets.getInt((long) i * Integer.BYTES) - start);
        }
        ArrowBuf data = batch.ensureData(end - start);
        if (end > start) {
            data.setBytes(0, values.getDataBuffer(), start, end - start);
        }
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
