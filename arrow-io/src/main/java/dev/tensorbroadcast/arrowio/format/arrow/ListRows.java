package dev.tensorbroadcast.arrowio.format.arrow;

import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.planner.Param;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.LargeListViewVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.ListViewVector;

/**
 * Rows of an Arrow list column, {@code List} or {@code LargeList}, nested or not ({@code list<list<float>>} as
 * Hugging Face's {@code Array2D} and polars' nested lists store a row): each row's values must be {@code rowElements}
 * and, when nested, every innermost list the row shape's last dim (as for Parquet's lists of lists). The values of
 * consecutive rows are one run of the innermost vector, which is copied at once.
 */
final class ListRows {
    private ListRows() {}

    /** Where the values of a run of rows lie in the innermost vector. */
    record Run(FieldVector values, long firstValue) {}

    static boolean isList(FieldVector vector) {
        return vector instanceof ListVector || vector instanceof LargeListVector;
    }

    /**
     * Checks rows {@code [first, last)} of {@code list} ({@code fileRow} is the file row of row 0, for messages) and
     * returns where their values start.
     */
    static Run run(String name, FieldVector list, int first, int last, long fileRow, long rowElements, long innerDim) {
        for (int row = first; row < last; row++) {
            long a = row;
            long b = row + 1L;
            FieldVector level = list;
            boolean nested = isList(child(level));
            while (isList(level)) {
                FieldVector child = child(level);
                if (nested && !isList(child)) {
                    for (long inner = a; inner < b; inner++) {
                        long length = offset(level, inner + 1) - offset(level, inner);
                        if (length != innerDim) {
                            throw new SourceFormatException(
                                    name,
                                    "row " + (fileRow + row) + " has an inner list of "
                                            + length + " values; its innermost lists are the row's last dim, "
                                            + innerDim
                                            + " (" + Param.ROW_SHAPE.named() + ")");
                        }
                    }
                }
                long start = offset(level, a);
                b = offset(level, b);
                a = start;
                level = child;
            }
            if (b - a != rowElements) {
                throw new SourceFormatException(
                        name,
                        "row " + (fileRow + row) + " has " + (b - a) + " values;" + " every row needs " + rowElements
                                + " (" + Param.ROW_SHAPE.named() + ")");
            }
        }
        long a = first;
        FieldVector level = list;
        while (isList(level)) {
            a = offset(level, a);
            level = child(level);
        }
        return new Run(level, a);
    }

    static boolean isListView(FieldVector vector) {
        return vector instanceof ListViewVector || vector instanceof LargeListViewVector;
    }

    /** Where row {@code row} of a list view ({@code ListView}, {@code LargeListView}) of numbers lies. */
    static Run viewRow(String name, FieldVector view, int row, long fileRow, long rowElements) {
        long offset;
        long size;
        FieldVector values;
        if (view instanceof LargeListViewVector large) {
            offset = large.getOffsetBuffer().getLong(8L * row);
            size = large.getSizeBuffer().getLong(8L * row);
            values = large.getDataVector();
        } else {
            ListViewVector plain = (ListViewVector) view;
            offset = plain.getOffsetBuffer().getInt(4L * row);
            size = plain.getSizeBuffer().getInt(4L * row);
            values = plain.getDataVector();
        }
        if (size != rowElements) {
            throw new SourceFormatException(
                    name,
                    "row " + (fileRow + row) + " has " + size + " values;" + " every row needs " + rowElements + " ("
                            + Param.ROW_SHAPE.named() + ")");
        }
        if (offset < 0 || offset + size > values.getValueCount()) {
            throw new SourceFormatException(
                    name,
                    "row " + (fileRow + row) + " of its list view points past its " + values.getValueCount()
                            + " values");
        }
        return new Run(values, offset);
    }

    /** The innermost values' vector of a list column. */
    static FieldVector leaf(FieldVector list) {
        FieldVector level = list;
        while (isList(level)) {
            level = child(level);
        }
        return level;
    }

    private static FieldVector child(FieldVector list) {
        if (list instanceof ListVector plain) {
            return plain.getDataVector();
        }
        if (list instanceof LargeListVector large) {
            return large.getDataVector();
        }
        return null;
    }

    private static long offset(FieldVector list, long i) {
        if (list instanceof LargeListVector large) {
            return large.getOffsetBuffer().getLong(8 * i);
        }
        return ((ListVector) list).getOffsetBuffer().getInt(4 * i);
    }
}
