package dev.tensorbroadcast.arrowio.format.arrow;

import dev.tensorbroadcast.arrowio.ArrowDTypes;
import dev.tensorbroadcast.arrowio.format.DatasetColumn;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/** The {@link DatasetColumn} of an Arrow schema's field: of an Arrow IPC file, or of a Parquet file's Arrow schema. */
public final class ArrowDatasetColumn {
    private ArrowDatasetColumn() {}

    /**
     * An Arrow IPC file's column: a tensor or fixed-size list column, or a list ({@code List} or {@code LargeList},
     * nested or not) of numbers, whose row shape a Hugging Face {@code Array2D}..{@code Array5D} extension type
     * fixes ({@link HuggingFaceArrays}).
     */
    public static DatasetColumn of(String file, Field field) {
        ArrowType type = field.getType();
        if (type instanceof ArrowType.List || type instanceof ArrowType.LargeList) {
            Field values = field.getChildren().get(0);
            while (values.getType() instanceof ArrowType.List || values.getType() instanceof ArrowType.LargeList) {
                values = values.getChildren().get(0);
            }
            DType dtype;
            try {
                dtype = ArrowDTypes.dtypeOf(values.getType());
            } catch (IllegalArgumentException e) {
                throw DatasetColumn.notNumbers(
                        file, field.getName(), values.getType().toString());
            }
            Shape fixed = HuggingFaceArrays.rowShape(field).orElse(null);
            return DatasetColumn.checked(file, new DatasetColumn(field.getName(), dtype, fixed, false));
        }
        if (type instanceof ArrowType.ListView || type instanceof ArrowType.LargeListView) {
            Field values = field.getChildren().get(0);
            DType dtype;
            try {
                dtype = ArrowDTypes.dtypeOf(values.getType());
            } catch (IllegalArgumentException e) {
                // a view of lists among them: its rows could lie anywhere, level by level
                throw new SourceFormatException(
                        file,
                        "column '" + field.getName() + "' is a " + type + " of "
                                + values.getType()
                                + "; a list view's values must be numbers (write nested rows as lists:"
                                + " pyarrow's cast to pa.list_)");
            }
            return DatasetColumn.checked(file, new DatasetColumn(field.getName(), dtype, null, false));
        }
        ArrowColumn column = ArrowColumn.resolve(file, field);
        if (!column.list()) {
            throw new SourceFormatException(
                    file,
                    "column '" + field.getName() + "' holds one " + column.dtype()
                            + " per row; a dataset's rows are a list, a fixed-size list or an arrow.fixed_shape_tensor of "
                            + "numbers");
        }
        if (column.physicalAxes() != null) {
            throw new SourceFormatException(
                    file,
                    "column '" + field.getName() + "' is a permuted tensor; a dataset "
                            + "read in slices needs row-major rows");
        }
        return DatasetColumn.checked(file, new DatasetColumn(field.getName(), column.dtype(), column.rowShape(), true));
    }

    /** Whether {@code type} is a list whose length each row sets (which only a dataset reads). */
    static boolean isVariableList(ArrowType type) {
        return type instanceof ArrowType.List
                || type instanceof ArrowType.LargeList
                || type instanceof ArrowType.ListView
                || type instanceof ArrowType.LargeListView;
    }
}
