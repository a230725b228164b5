package dev.tensorbroadcast.arrowio.source;

import dev.tensorbroadcast.arrowio.ArrowDTypes;
import dev.tensorbroadcast.arrowio.TensorColumn;
import dev.tensorbroadcast.arrowio.TensorFileSchema;
import dev.tensorbroadcast.arrowio.parquet.ParquetTensorSchema;
import dev.tensorbroadcast.arrowio.parquet.RowLayout;
import dev.tensorbroadcast.arrowio.parquet.SizedInputFile;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;

/**
 * Reads a Parquet dataset file one row group at a time (the writer makes one per batch) into an
 * {@link ElementBatch}, through parquet-java's column readers. The file's schema must be exactly the one
 * {@link ParquetTensorSchema} writes for the manifest's dtype, row shape and row layout.
 */
public final class ParquetFileBatches implements DatasetFileReader {
    private final ParquetFileReader reader;
    private final MessageType schema;
    private final String createdBy;
    private final ColumnDescriptor indexColumn;
    private final ColumnDescriptor valueColumn;
    private final ElementBatch batch;
    private final DType dtype;
    private final long rowElements;
    /** Level entries per row: two per complex element, and one or more empty lists when a row has no elements. */
    private final long entriesPerRow;

    public ParquetFileBatches(FileSystem fileSystem, Path path, long length, BufferAllocator allocator, DType dtype,
            Shape rowShape, RowLayout layout) throws IOException {
        this.reader = ParquetFileReader.open(new SizedInputFile(fileSystem, path, length));
        this.dtype = dtype;
        this.rowElements = rowShape.elements();
        ParquetTensorSchema expected = new ParquetTensorSchema(
                new TensorColumn(TensorFileSchema.TENSOR_COLUMN, dtype, rowShape), List.of(), layout);
        this.entriesPerRow = expected.entriesPerRow();
        try {
            MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
            this.createdBy = reader.getFooter().getFileMetaData().getCreatedBy();
            // kept columns follow index and tensor; only those two are read here
            int fields = fileSchema.getFieldCount();
            MessageType tensorPart = new MessageType(fileSchema.getName(), fileSchema.getFields().subList(0,
                    Math.min(2, fields)));
            if (!tensorPart.equals(expected.messageType())) {
                throw new IOException("its schema is not the one for " + dtype + " rows of " + rowShape
                        + ": found " + fileSchema.toString().replaceAll("\\s+", " ").strip());
            }
            this.schema = tensorPart;
            reader.setRequestedSchema(tensorPart);
            this.indexColumn = schema.getColumnDescription(new String[] {TensorFileSchema.INDEX_COLUMN});
            this.valueColumn = expected.valuesDescriptor();
        } catch (IOException | RuntimeException e) {
            reader.close();
            throw e;
        }
        this.batch = new ElementBatch(allocator, dtype);
    }

    @Override
    public ElementBatch next() throws IOException {
        PageReadStore pages = reader.readNextRowGroup();
        if (pages == null) {
            return null;
        }
        int rows = Math.toIntExact(pages.getRowCount());
        ColumnReadStoreImpl store = new ColumnReadStoreImpl(pages,
                new GroupRecordConverter(schema).getRootConverter(), schema, createdBy);
        ColumnReader index = store.getColumnReader(indexColumn);
        long firstRow = rows == 0 ? 0 : index.getLong();
        for (int row = 0; row < rows; row++) {
            long value = index.getLong();
            if (value != firstRow + row) {
                throw new IOException("its index column jumps from " + (firstRow + row - 1) + " to " + value
                        + "; rows must be consecutive");
            }
            index.consume();
        }
        int elements = Math.toIntExact(rows * rowElements);
        batch.reset(firstRow, rows, elements);
        ColumnReader values = store.getColumnReader(valueColumn);
        long entries = rows * entriesPerRow;
        if (values.getTotalValueCount() != entries) {
            throw new IOException("a row group of " + rows + " rows holds " + values.getTotalValueCount()
                    + " list entries; rows of " + rowElements + " elements need " + entries);
        }
        if (elements == 0) {
            batch.offsets().setInt(0, 0);
            return batch;
        }
        read(values, elements);
        return batch;
    }

    private void read(ColumnReader values, int elements) {
        int present = valueColumn.getMaxDefinitionLevel();
        ArrowBuf out = batch.values();
        boolean complex = ArrowDTypes.isComplex(dtype);
        int dataBytes = 0;
        if (dtype == DType.STRING) {
            batch.offsets().setInt(0, 0);
        }
        for (int i = 0; i < elements; i++) {
            boolean valid = values.getCurrentDefinitionLevel() == present;
            batch.setValid(i, valid);
            switch (dtype) {
                case BOOL -> batch.setBit(i, valid && values.getBoolean());
                case INT8, UINT8 -> out.setByte(i, valid ? values.getInteger() : 0);
                case INT16, UINT16, BFLOAT16 -> out.setShort(2L * i, valid ? values.getInteger() : 0);
                case INT32, UINT32 -> out.setInt(4L * i, valid ? values.getInteger() : 0);
                case INT64, UINT64 -> out.setLong(8L * i, valid ? values.getLong() : 0);
                case FLOAT16 -> out.setShort(2L * i, valid ? littleEndianShort(values.getBinary()) : 0);
                case FLOAT32, COMPLEX64 -> out.setFloat(4L * (complex ? 2L * i : i), valid ? values.getFloat() : 0);
                case FLOAT64, COMPLEX128 -> out.setDouble(8L * (complex ? 2L * i : i),
                        valid ? values.getDouble() : 0);
                case STRING -> {
                    if (valid) {
                        Binary binary = values.getBinary();
                        int length = binary.length();
                        ArrowBuf data = batch.ensureData((long) dataBytes + length);
                        data.setBytes(dataBytes, binary.toByteBuffer());
                        dataBytes += length;
                    }
                    batch.offsets().setInt(4L * (i + 1), dataBytes);
                }
            }
            values.consume();
            if (complex) {
                if (dtype == DType.COMPLEX64) {
                    out.setFloat(8L * i + 4, valid ? values.getFloat() : 0);
                } else {
                    out.setDouble(16L * i + 8, valid ? values.getDouble() : 0);
                }
                values.consume();
            }
        }
    }

    private static short littleEndianShort(Binary binary) {
        ByteBuffer bytes = binary.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        return bytes.getShort(bytes.position());
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
