package dev.tensorbroadcast.planner;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.util.Arrays;

/**
 * How an output is cut into rows and partitions.
 *
 * <p>A <em>row</em> is a block of the output's trailing dims: the leading {@link #rowDims()} dims index the rows and
 * the rest is the {@link #rowShape()}, one element of a {@code fixed_shape_tensor} column. The first dim indexes the
 * rows, as a user of a batch of tensors expects; more leading dims join it only while a row would exceed the maximum
 * row size (64 MiB by default, and never more than the partition size), or when an exact partition count needs more
 * rows. A scalar output is one row.
 *
 * <p>A <em>partition</em> is a contiguous range of whole rows, balanced by bytes to a target size (128 MiB by default)
 * or to an exact count. Partitions are computed on demand, so a plan of any size costs constant memory.
 */
public final class PartitionPlan implements Serializable {
    private static final long serialVersionUID = 1L;

    public static final long MIB = 1L << 20;
    public static final long DEFAULT_PARTITION_BYTES = 128 * MIB;
    public static final long DEFAULT_MAX_ROW_BYTES = 64 * MIB;
    /** Spark numbers partitions with an {@code int}. */
    public static final long MAX_PARTITIONS = Integer.MAX_VALUE;

    private final Shape output;
    private final long elementBits;
    private final int rowDims;
    private final long rows;
    private final long rowElements;
    private final long partitionCount;
    /** rows / partitionCount and rows % partitionCount: the first {@code extra} partitions get one more row. */
    private final long rowsPerPartition;

    private final long extra;
    /** The first row of each partition when they were cut at given rows ({@link #cutAt}); null when uniform. */
    private final long[] starts;

    private final long minRows;
    private final long maxRows;

    private PartitionPlan(Builder builder) {
        this.output = builder.output;
        this.elementBits = builder.elementBits;
        long bytes = bytes(output.elements(), elementBits);
        long maxRowBytes =
                builder.partitions > 0 ? builder.maxRowBytes : Math.min(builder.maxRowBytes, builder.partitionBytes);
        int dims = output.rank() == 0 ? 0 : 1;
        while (dims < output.rank()
                && (bytes(output.product(dims, output.rank()), elementBits) > maxRowBytes
                        || needsMoreRows(output, dims, builder.partitions))) {
            dims++;
        }
        this.rowDims = dims;
        this.rows = output.product(0, dims);
        this.rowElements = output.product(dims, output.rank());
        long wanted = builder.partitions > 0 ? builder.partitions : ceilDiv(bytes, builder.partitionBytes);
        long count = Math.max(1, Math.min(wanted, rows));
        if (count > MAX_PARTITIONS) {
            throw new TooLargeException("Cannot plan " + count + " partitions for output " + output + " (" + bytes
                    + " bytes): Spark allows at most " + MAX_PARTITIONS + "; choose a larger partition size");
        }
        this.partitionCount = count;
        this.rowsPerPartition = rows / count;
        this.extra = rows % count;
        this.starts = null;
        this.minRows = rowsPerPartition;
        this.maxRows = rowsPerPartition + (extra > 0 ? 1 : 0);
    }

    private PartitionPlan(PartitionPlan uniform, long[] starts) {
        this.output = uniform.output;
        this.elementBits = uniform.elementBits;
        this.rowDims = uniform.rowDims;
        this.rows = uniform.rows;
        this.rowElements = uniform.rowElements;
        this.partitionCount = starts.length;
        this.rowsPerPartition = 0;
        this.extra = 0;
        this.starts = starts.clone();
        long min = Long.MAX_VALUE;
        long max = 0;
        for (int i = 0; i < starts.length; i++) {
            long end = i + 1 < starts.length ? starts[i + 1] : rows;
            if (end <= starts[i] || (i == 0 && starts[0] != 0)) {
                throw new IllegalArgumentException("Cannot cut " + rows + " rows at " + Arrays.toString(starts)
                        + ": partitions start at 0 and at increasing rows below " + rows);
            }
            min = Math.min(min, end - starts[i]);
            max = Math.max(max, end - starts[i]);
        }
        this.minRows = min;
        this.maxRows = max;
    }

    /**
     * The same rows in partitions that start at {@code starts} (0 first, increasing, each below {@link #rows}): for
     * partitions that follow a source's row groups, so that no row group is read by two tasks.
     */
    public PartitionPlan cutAt(long[] starts) {
        requireNonNull(starts, "starts is null");
        if (starts.length == 0) { // an array's length cannot pass MAX_PARTITIONS
            throw new IllegalArgumentException("Cannot cut " + rows + " rows into " + starts.length + " partitions");
        }
        return new PartitionPlan(this, starts);
    }

    public static Builder builder(Shape output, DType dtype) {
        return new Builder(output, dtype);
    }

    /** Partitions for the plan's output, sized by the first input's dtype. */
    public static Builder builderFor(BroadcastPlan plan) {
        return new Builder(plan.output(), plan.request().input(0).dtype());
    }

    public Shape output() {
        return output;
    }

    public long elements() {
        return output.elements();
    }

    /** Output bytes: elements times the element width (bits, rounded up to whole bytes). */
    public long bytes() {
        return bytes(output.elements(), elementBits);
    }

    public long elementBits() {
        return elementBits;
    }

    /** How many leading dims index the rows. */
    public int rowDims() {
        return rowDims;
    }

    public Shape rowShape() {
        return output.slice(rowDims, output.rank());
    }

    public long rows() {
        return rows;
    }

    public long rowElements() {
        return rowElements;
    }

    public long rowBytes() {
        return bytes(rowElements, elementBits);
    }

    public long partitionCount() {
        return partitionCount;
    }

    public Partition partition(long index) {
        if (index < 0 || index >= partitionCount) {
            throw new IndexOutOfBoundsException("partition " + index + " outside [0, " + partitionCount + ")");
        }
        if (starts != null) {
            int at = (int) index;
            long end = at + 1 < starts.length ? starts[at + 1] : rows;
            return new Partition(index, starts[at], end - starts[at], rowElements);
        }
        long firstRow = index * rowsPerPartition + Math.min(index, extra);
        long count = rowsPerPartition + (index < extra ? 1 : 0);
        return new Partition(index, firstRow, count, rowElements);
    }

    /** The partition that holds {@code row}. */
    public Partition partitionOfRow(long row) {
        if (row < 0 || row >= rows) {
            throw new IndexOutOfBoundsException("row " + row + " outside [0, " + rows + ")");
        }
        if (starts != null) {
            int found = Arrays.binarySearch(starts, row);
            return partition(found >= 0 ? found : -found - 2);
        }
        long bigRows = extra * (rowsPerPartition + 1);
        long index = row < bigRows ? row / (rowsPerPartition + 1) : extra + (row - bigRows) / rowsPerPartition;
        return partition(index);
    }

    /** The fewest and most rows a partition holds. */
    public long minPartitionRows() {
        return minRows;
    }

    public long maxPartitionRows() {
        return maxRows;
    }

    /**
     * Whether an exact partition count wants more rows than {@code rowDims} leading dims give, and joining more dims
     * can give them: not when the rest are 1s, nor when a 0 would leave no rows at all.
     */
    private static boolean needsMoreRows(Shape output, int rowDims, long partitions) {
        long rows = output.product(0, rowDims);
        return rows < partitions && rows < output.elements();
    }

    private static long bytes(long elements, long bits) {
        try {
            return bits % 8 == 0
                    ? Math.multiplyExact(elements, bits / 8)
                    : ceilDiv(Math.multiplyExact(elements, bits), 8);
        } catch (ArithmeticException e) {
            throw new TooLargeException("Cannot size " + elements + " elements of " + bits
                    + " bits: the byte count exceeds " + Long.MAX_VALUE);
        }
    }

    private static long ceilDiv(long a, long b) {
        return a / b + (a % b == 0 ? 0 : 1);
    }

    @Override
    public String toString() {
        return output + " as " + rows + " rows of " + rowShape() + " in " + partitionCount + " partitions";
    }

    public static final class Builder {
        private final Shape output;
        private long elementBits;
        private long partitionBytes = DEFAULT_PARTITION_BYTES;
        private long partitions;
        private long maxRowBytes = DEFAULT_MAX_ROW_BYTES;

        private Builder(Shape output, DType dtype) {
            this.output = requireNonNull(output, "output is null");
            this.elementBits = requireNonNull(dtype, "dtype is null").sizingBits();
        }

        /** Target bytes per partition; partitions are balanced to about this size. */
        public Builder partitionBytes(long bytes) {
            if (bytes <= 0) {
                throw new InvalidRequestException(
                        "Cannot use partition size " + bytes + ": it must be at least 1 byte");
            }
            this.partitionBytes = bytes;
            this.partitions = 0;
            return this;
        }

        /** An exact number of partitions instead of a size; fewer when the output has fewer rows. */
        public Builder partitions(long count) {
            if (count <= 0 || count > MAX_PARTITIONS) {
                throw new InvalidRequestException(
                        "Cannot use " + count + " partitions: the count must be from 1 to " + MAX_PARTITIONS);
            }
            this.partitions = count;
            return this;
        }

        public Builder maxRowBytes(long bytes) {
            if (bytes <= 0) {
                throw new InvalidRequestException(
                        "Cannot use maximum row size " + bytes + ": it must be at least 1 byte");
            }
            this.maxRowBytes = bytes;
            return this;
        }

        /** Bits per element, for strings whose average size is known from the data. */
        public Builder elementBits(long bits) {
            if (bits <= 0 || (bits != 1 && bits % 8 != 0)) {
                throw new IllegalArgumentException("element bits must be 1 or a positive multiple of 8: " + bits);
            }
            this.elementBits = bits;
            return this;
        }

        public PartitionPlan build() {
            return new PartitionPlan(this);
        }
    }
}
