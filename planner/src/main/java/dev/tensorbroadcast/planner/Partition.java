package dev.tensorbroadcast.planner;

import java.io.Serializable;

/**
 * One partition of the output: a contiguous range of whole rows. {@code rowElements} lets a task turn its rows into
 * the element range that a {@link CopyProgram} fills.
 */
public record Partition(long index, long firstRow, long rowCount, long rowElements) implements Serializable {
    public Partition {
        if (index < 0 || firstRow < 0 || rowCount < 0 || rowElements < 0) {
            throw new IllegalArgumentException("negative value in partition " + index + ": rows " + firstRow + "+"
                    + rowCount + " of " + rowElements + " elements");
        }
    }

    /** One past the last row. */
    public long endRow() {
        return firstRow + rowCount;
    }

    /** The first output element (row-major) of this partition. */
    public long firstElement() {
        return firstRow * rowElements;
    }

    public long elementCount() {
        return rowCount * rowElements;
    }

    public long endElement() {
        return firstElement() + elementCount();
    }
}
