package dev.tensorbroadcast.arrowio.format;

import dev.tensorbroadcast.arrowio.ArrowDTypes;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Param;
import dev.tensorbroadcast.planner.Shape;
import java.util.Optional;

/**
 * The column of one dataset file that holds the rows, as its schema states it: the element type, and the row shape
 * when the file fixes it (a tensor column), or null for a list column whose rows the user shapes.
 *
 * @param name the column's name
 * @param dtype the element type
 * @param fileRowShape the row shape the file fixes, or null
 * @param fixedList whether the values are stored as a fixed-size list (Arrow {@code FixedSizeList}), so every row
 *     has the same length by construction; otherwise each row's length is checked as it is read
 */
public record DatasetColumn(String name, DType dtype, Shape fileRowShape, boolean fixedList) {
    static final String NUMBERS = "int8..int64, uint8..uint64, float16, bfloat16, float32 or float64";

    /** A column that holds numbers in rows of {@code rowShape}, each row stored at that length. */
    public static DatasetColumn tensor(String file, String name, DType dtype, Shape rowShape) {
        return checked(file, new DatasetColumn(name, dtype, rowShape, true));
    }

    public static DatasetColumn checked(String file, DatasetColumn column) {
        DType dtype = column.dtype();
        if (!dtype.isFixedWidth() || dtype == DType.BOOL || ArrowDTypes.isComplex(dtype)) {
            throw notNumbers(file, column.name(), dtype.typeName());
        }
        return column;
    }

    public static SourceFormatException notNumbers(String file, String column, String type) {
        return new SourceFormatException(
                file, "column '" + column + "' holds " + type + "; a dataset read in " + "slices holds " + NUMBERS);
    }

    /** The row shape: the declared one (which must fit a tensor column's rows), else the file's own. */
    public Shape rowShape(String file, Optional<Shape> declared) {
        if (declared.isPresent()) {
            Shape wanted = declared.get();
            if (fileRowShape != null && wanted.elements() != fileRowShape.elements()) {
                throw new SourceFormatException(
                        file,
                        "column '" + name + "' has rows of " + fileRowShape.toList()
                                + " (" + fileRowShape.elements() + " elements); "
                                + Param.ROW_SHAPE.given(
                                        "Shape.parse(\"" + wanted.toList() + "\")",
                                        wanted.toList().toString())
                                + " has "
                                + wanted.elements());
            }
            return wanted;
        }
        if (fileRowShape == null) {
            throw new SourceFormatException(
                    file,
                    "column '" + name + "' is a list of " + dtype.typeName()
                            + " whose length the file does not fix; give the shape of one row with "
                            + Param.ROW_SHAPE.named() + " (such as [1,64])");
        }
        return fileRowShape;
    }

    /** How the column reads in a mismatch message: {@code 'features' of float32}. */
    public String describe() {
        return "'" + name + "' of " + dtype.typeName()
                + (fileRowShape == null ? " lists" : " rows of " + fileRowShape.toList());
    }
}
