package dev.tensorbroadcast.arrowio;

import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The columns of every dataset file, whatever its format: {@code index} (int64, the row's position in the whole
 * output), {@code tensor}, then the kept columns. Each format's writer lays these out in its own terms; this is the
 * one place that says what they are.
 */
public final class TensorFileSchema {
    public static final String INDEX_COLUMN = "index";
    public static final String TENSOR_COLUMN = "tensor";

    private TensorFileSchema() {}

    /** The schema of the files: {@code index} and {@code tensor} of this dtype and row shape. */
    public static Schema schema(DType dtype, Shape rowShape) {
        return schema(new TensorColumn(TENSOR_COLUMN, dtype, rowShape));
    }

    /** The schema of rows of {@code tensor} with their {@code index}. */
    public static Schema schema(TensorColumn tensor) {
        return schema(tensor, List.of());
    }

    /** The schema of rows of {@code tensor} with their {@code index}, then the {@code kept} columns. */
    public static Schema schema(TensorColumn tensor, List<KeptColumn> kept) {
        return schema(tensor.field(), kept);
    }

    /** The schema of rows of the tensor column {@code tensor} (as laid out) with their {@code index}, then kept. */
    public static Schema schema(Field tensor, List<KeptColumn> kept) {
        List<Field> fields = new ArrayList<>();
        fields.add(Field.notNullable(INDEX_COLUMN, new ArrowType.Int(64, true)));
        fields.add(tensor);
        kept.forEach(column -> fields.add(column.field()));
        return new Schema(fields);
    }
}
