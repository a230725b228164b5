package dev.tensorbroadcast.job.format.raw;

import dev.tensorbroadcast.arrowio.TensorFileSchema;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.DatasetChunk;
import dev.tensorbroadcast.arrowio.format.DatasetColumn;
import dev.tensorbroadcast.arrowio.format.DatasetFileFormat;
import dev.tensorbroadcast.arrowio.format.DatasetFileReader;
import dev.tensorbroadcast.arrowio.format.DatasetPart;
import dev.tensorbroadcast.arrowio.format.ElementBatch;
import dev.tensorbroadcast.arrowio.format.FirstRowValues;
import dev.tensorbroadcast.arrowio.format.PartFooter;
import dev.tensorbroadcast.arrowio.format.PartOutput;
import dev.tensorbroadcast.arrowio.format.RowLayout;
import dev.tensorbroadcast.arrowio.format.SliceBuffer;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.format.WriteSettings;
import dev.tensorbroadcast.arrowio.kept.KeptOutput;
import dev.tensorbroadcast.arrowio.kept.KeptRows;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Partition;
import dev.tensorbroadcast.planner.Shape;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.function.LongConsumer;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A toy dataset format, only for proving the format seam: a header (magic {@code RAWTNS}, the row shape, the dtype's
 * name, the first row's index and the row count, all little-endian) and then the rows' values, little-endian, one
 * after another. No kept columns, no nulls, no compression. It lives in this package alone and is added through
 * {@code TensorFileFormats.register}: nothing else in the project knows it.
 */
public record RawFormat() implements DatasetFileFormat {
    private static final long serialVersionUID = 1L;
    private static final byte[] MAGIC = "RAWTNS".getBytes(StandardCharsets.US_ASCII);
    /** Values filled and written at a time. */
    private static final long BATCH_BYTES = 1 << 16;

    @Override
    public String name() {
        return "raw";
    }

    @Override
    public String extension() {
        return ".raw";
    }

    @Override
    public String description() {
        return "raw";
    }

    @Override
    public byte[] magic() {
        return MAGIC.clone();
    }

    @Override
    public Optional<String> whyRowsStayFlat() {
        return Optional.of("raw rows are bare values");
    }

    @Override
    public void write(
            TensorKernel kernel,
            Shape rowShape,
            Partition partition,
            Optional<KeptOutput> kept,
            WriteSettings settings,
            LongConsumer progress,
            PartOutput out)
            throws IOException {
        if (kept.isPresent()) {
            throw new IOException("raw files hold no kept columns");
        }
        OutputStream stream = out.stream();
        stream.write(header(rowShape, kernel.dtype(), partition.firstRow(), partition.rowCount()));
        int width = kernel.dtype().byteWidth();
        long rowBytes = Math.max(1, rowShape.elements() * width);
        long rowsPerBatch = Math.max(1, BATCH_BYTES / rowBytes);
        try (BufferAllocator allocator = new RootAllocator();
                ArrowBuf values = allocator.buffer(rowsPerBatch * rowShape.elements() * width)) {
            byte[] bytes = new byte[(int) (rowsPerBatch * rowShape.elements() * width)];
            for (long row = partition.firstRow(); row < partition.endRow(); row += rowsPerBatch) {
                long rows = Math.min(rowsPerBatch, partition.endRow() - row);
                long elements = rows * rowShape.elements();
                kernel.fillValues(row * rowShape.elements(), row * rowShape.elements() + elements, values);
                values.getBytes(0, bytes, 0, (int) (elements * width));
                stream.write(bytes, 0, (int) (elements * width));
                progress.accept(rows);
            }
        }
    }

    private static byte[] header(Shape rowShape, DType dtype, long firstIndex, long rows) {
        byte[] name = dtype.typeName().getBytes(StandardCharsets.US_ASCII);
        ByteBuffer header = ByteBuffer.allocate(MAGIC.length + 4 + 8 * rowShape.rank() + 4 + name.length + 16)
                .order(ByteOrder.LITTLE_ENDIAN);
        header.put(MAGIC).putInt(rowShape.rank());
        for (long dim : rowShape.dims()) {
            header.putLong(dim);
        }
        header.putInt(name.length).put(name).putLong(firstIndex).putLong(rows);
        return header.array();
    }

    /** A file's header as read back. */
    private record Header(int bytes, Shape rowShape, DType dtype, long firstIndex, long rows) {}

    private static Header readHeader(FileSystem fileSystem, Path path) throws IOException {
        byte[] head = new byte[4096];
        int read;
        try (FSDataInputStream in = fileSystem.open(path)) {
            read = in.readNBytes(head, 0, head.length);
        }
        ByteBuffer buffer = ByteBuffer.wrap(head, 0, read).order(ByteOrder.LITTLE_ENDIAN);
        buffer.position(MAGIC.length);
        long[] dims = new long[buffer.getInt()];
        for (int i = 0; i < dims.length; i++) {
            dims[i] = buffer.getLong();
        }
        byte[] name = new byte[buffer.getInt()];
        buffer.get(name);
        DType dtype = DType.parse(new String(name, StandardCharsets.US_ASCII));
        long firstIndex = buffer.getLong();
        long rows = buffer.getLong();
        return new Header(buffer.position(), Shape.of(dims), dtype, firstIndex, rows);
    }

    @Override
    public PartFooter footer(FileSystem fileSystem, Path path, long length, Optional<String> column)
            throws IOException {
        String name = path.toString();
        if (column.isPresent() && !column.get().equals(TensorFileSchema.TENSOR_COLUMN)) {
            throw new SourceFormatException(
                    name, "a raw file has one column, '" + TensorFileSchema.TENSOR_COLUMN + "'");
        }
        Header header = readHeader(fileSystem, path);
        return new PartFooter(
                DatasetColumn.tensor(name, TensorFileSchema.TENSOR_COLUMN, header.dtype(), header.rowShape()),
                true,
                List.of(new DatasetChunk(header.rows(), length - header.bytes())),
                header.rows() == 0 ? -1 : header.firstIndex(),
                List.of(),
                FirstRowValues.UNKNOWN);
    }

    @Override
    public void readRows(
            FileSystem fileSystem,
            DatasetPart part,
            TensorDataset dataset,
            long from,
            long to,
            SliceBuffer out,
            long outRow)
            throws IOException {
        Path path = new Path(part.path());
        Header header = readHeader(fileSystem, path);
        long rowBytes = out.rowElements() * out.width();
        try (FSDataInputStream in = fileSystem.open(path)) {
            in.readFully(header.bytes() + from * rowBytes, out.values(), out.offset(outRow, 0), (int)
                    ((to - from) * rowBytes));
        }
    }

    @Override
    public DatasetFileReader openBatches(
            FileSystem fileSystem,
            Path path,
            long length,
            BufferAllocator allocator,
            DType dtype,
            Shape rowShape,
            RowLayout layout)
            throws IOException {
        Header header = readHeader(fileSystem, path);
        if (header.dtype() != dtype || !header.rowShape().equals(rowShape)) {
            throw new IOException("it holds " + header.dtype() + " rows of " + header.rowShape() + ", not " + dtype
                    + " rows of " + rowShape);
        }
        ElementBatch batch = new ElementBatch(allocator, dtype);
        return new DatasetFileReader() {
            private boolean read;

            @Override
            public ElementBatch next() throws IOException {
                if (read) {
                    return null;
                }
                read = true;
                int elements = Math.toIntExact(header.rows() * rowShape.elements());
                byte[] bytes = new byte[elements * dtype.byteWidth()];
                try (FSDataInputStream in = fileSystem.open(path)) {
                    in.readFully(header.bytes(), bytes, 0, bytes.length);
                }
                batch.reset(header.firstIndex(), Math.toIntExact(header.rows()), elements);
                batch.values().setBytes(0, bytes);
                batch.setAllValid();
                return batch;
            }

            @Override
            public void close() {
                batch.close();
            }
        };
    }

    @Override
    public void readKept(FileSystem fileSystem, DatasetPart part, KeptRows kept, long from, long to, int at)
            throws IOException {
        throw new IOException("raw files hold no kept columns");
    }
}
