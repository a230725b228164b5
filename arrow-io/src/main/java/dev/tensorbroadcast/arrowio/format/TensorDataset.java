package dev.tensorbroadcast.arrowio.format;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.SourceRows;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * A source tensor stored as a directory of Arrow IPC or Parquet files, one row of the tensor per table row: shape
 * {@code [rows] + rowShape}. Only the footers have been read, so it costs memory per file, not per row; tasks read
 * the rows they need with {@code source.DatasetSlices}. Serializable, so a task receives it.
 *
 * @param location the directory, as the user gave it
 * @param column the column holding the rows
 * @param dtype the element type
 * @param rowShape the shape of one row
 * @param indexed whether the files carry an {@code index} column, checked while reading
 * @param parts the files in row order
 * @param others the files' other columns, in order, which may be kept next to the expanded rows, then its
 *     partition keys
 * @param partitionKeys the keys of its Hive partitions ({@code key=value} directories), outermost first; each is
 *     one of {@code others}, whose values each part holds ({@link DatasetPart#partition})
 */
public record TensorDataset(
        String location,
        String column,
        DType dtype,
        Shape rowShape,
        boolean indexed,
        List<DatasetPart> parts,
        List<OtherColumn> others,
        List<String> partitionKeys)
        implements Serializable {
    public TensorDataset(
            String location, String column, DType dtype, Shape rowShape, boolean indexed, List<DatasetPart> parts) {
        this(location, column, dtype, rowShape, indexed, parts, List.of(), List.of());
    }

    public TensorDataset {
        others = List.copyOf(others);
        partitionKeys = List.copyOf(partitionKeys);
        requireNonNull(location, "location is null");
        requireNonNull(column, "column is null");
        requireNonNull(dtype, "dtype is null");
        requireNonNull(rowShape, "rowShape is null");
        parts = List.copyOf(parts);
        long next = 0;
        for (DatasetPart part : parts) {
            if (part.firstRow() != next) {
                throw new IllegalArgumentException(part.path() + " starts at row " + part.firstRow() + ", not " + next);
            }
            next = part.endRow();
        }
    }

    public long rows() {
        return parts.isEmpty() ? 0 : parts.get(parts.size() - 1).endRow();
    }

    /** The tensor's shape: the rows, then the row shape. */
    public Shape shape() {
        long[] row = rowShape.dims();
        long[] dims = new long[row.length + 1];
        dims[0] = rows();
        System.arraycopy(row, 0, dims, 1, row.length);
        return Shape.of(dims);
    }

    /** The bytes the whole tensor takes on the heap, which decides whether it is shipped whole. */
    public long valueBytes() {
        long elements = shape().elements();
        // bool values (an array's) are held as bits
        return dtype == DType.BOOL ? (elements + 7) / 8 : Math.multiplyExact(elements, (long) dtype.byteWidth());
    }

    /** The files' total length. */
    public long fileBytes() {
        long bytes = 0;
        for (DatasetPart part : parts) {
            bytes += part.fileBytes();
        }
        return bytes;
    }

    /** The files holding any of {@code rows}, in order. */
    public List<DatasetPart> partsFor(SourceRows rows) {
        List<DatasetPart> found = new ArrayList<>();
        for (DatasetPart part : parts) {
            if (part.endRow() > rows.first() && part.firstRow() < rows.end()) {
                found.add(part);
            }
        }
        return found;
    }

    /** The bytes of the record batches or row groups that hold {@code rows}: what reading them costs. */
    public long bytesToRead(SourceRows rows) {
        long bytes = 0;
        for (DatasetPart part : partsFor(rows)) {
            bytes += part.bytesToRead(rows);
        }
        return bytes;
    }
}
