package dev.tensorbroadcast.arrowio.format.arrow;

import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Fixed-size lists nested in fixed-size lists, as pyarrow stores a row of several dims without the tensor type
 * ({@code fixed_size_list<fixed_size_list<float, 16>, 4>} is a row of [4,16]): their sizes are the row's dims, and
 * the innermost values lie in row-major order, as a tensor's do.
 */
final class FixedLists {
    private FixedLists() {}

    /**
     * The list sizes of a fixed-size list column from the outermost in: its own, then its child's while the child is
     * a plain fixed-size list (no metadata of its own).
     */
    static List<Long> dims(Field field) {
        List<Long> dims = new ArrayList<>();
        dims.add((long) ((ArrowType.FixedSizeList) field.getType()).getListSize());
        for (Field level = onlyChild(field); level != null && isPlainFixedList(level); level = onlyChild(level)) {
            dims.add((long) ((ArrowType.FixedSizeList) level.getType()).getListSize());
        }
        return dims;
    }

    /** The field of the innermost values under a column's nested lists. */
    static Field values(Field field) {
        Field level = onlyChild(field);
        while (level != null && isPlainFixedList(level)) {
            level = onlyChild(level);
        }
        return level;
    }

    private static Field onlyChild(Field field) {
        return field.getChildren().size() == 1 ? field.getChildren().get(0) : null;
    }

    private static boolean isPlainFixedList(Field field) {
        return field.getType() instanceof ArrowType.FixedSizeList
                && field.getChildren().size() == 1
                && (field.getMetadata() == null || field.getMetadata().isEmpty());
    }

    /**
     * The innermost values under {@code rows}; the inner lists of rows {@code [first, last)} must be present (a
     * null inner list has no values), else the row is named ({@code fileRow} is the file row of entry 0).
     */
    static FieldVector values(String file, FixedSizeListVector rows, int first, int last, long fileRow) {
        FieldVector level = rows.getDataVector();
        while (level instanceof FixedSizeListVector inner) {
            long entries = perRowEntries(rows, inner);
            if (inner.getNullCount() > 0) {
                for (long k = first * entries; k < last * entries; k++) {
                    if (inner.isNull((int) k)) {
                        throw new SourceFormatException(
                                file,
                                "row " + (fileRow + k / entries) + " has a null inner"
                                        + " list; every row needs all its values");
                    }
                }
            }
            level = inner.getDataVector();
        }
        return level;
    }

    /** The values per row of {@code rows}: the product of its nested list sizes. */
    static long rowValues(FixedSizeListVector rows) {
        long values = rows.getListSize();
        for (FieldVector level = rows.getDataVector();
                level instanceof FixedSizeListVector inner;
                level = inner.getDataVector()) {
            values *= inner.getListSize();
        }
        return values;
    }

    /** Entries of {@code level} per row of {@code rows}: the product of the list sizes above it. */
    private static long perRowEntries(FixedSizeListVector rows, FixedSizeListVector level) {
        long entries = 1;
        for (FieldVector at = rows; at != level; at = ((FixedSizeListVector) at).getDataVector()) {
            entries *= ((FixedSizeListVector) at).getListSize();
        }
        return entries;
    }
}
