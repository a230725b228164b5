package dev.tensorbroadcast.arrowio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;

class TensorColumnTest {
    @Test
    void everyDtypeRoundTripsThroughItsField() {
        for (DType dtype : DType.values()) {
            TensorColumn column = new TensorColumn("t", dtype, Shape.of(4, 5));
            Field field = column.field();
            assertThat(TensorColumn.fromField(field)).as(dtype.typeName()).isEqualTo(column);
            assertThat(field.getChildren().get(0).getType()).isEqualTo(ArrowDTypes.valueType(dtype));
            assertThat(field.getMetadata()).containsEntry("tensor_broadcast.dtype", dtype.typeName());
            assertThat(field.getType() instanceof FixedShapeTensorType).isEqualTo(dtype != DType.STRING);
        }
    }

    @Test
    void mapsDtypesToArrowTypes() {
        assertThat(ArrowDTypes.valueType(DType.BFLOAT16)).isEqualTo(new ArrowType.Int(16, false));
        assertThat(ArrowDTypes.valueType(DType.FLOAT16))
                .isEqualTo(new ArrowType.FloatingPoint(FloatingPointPrecision.HALF));
        assertThat(ArrowDTypes.valueType(DType.COMPLEX128))
                .isEqualTo(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
        assertThat(ArrowDTypes.dtypeOf(new ArrowType.Int(32, false))).isEqualTo(DType.UINT32);
        assertThat(ArrowDTypes.storageShape(DType.COMPLEX64, Shape.of(4))).isEqualTo(Shape.of(4, 2));
        assertThat(ArrowDTypes.storageShape(DType.COMPLEX64, Shape.scalar())).isEqualTo(Shape.of(2));
        assertThat(ArrowDTypes.storageShape(DType.INT8, Shape.of(4))).isEqualTo(Shape.of(4));
        assertThatThrownBy(() -> ArrowDTypes.dtypeOf(ArrowType.Binary.INSTANCE))
                .hasMessageStartingWith("Cannot map Arrow type Binary to a dtype: expected one of Bool");
        assertThatThrownBy(() -> ArrowDTypes.rowShape(DType.COMPLEX64, Shape.of(4, 3)))
                .hasMessage("Cannot read a complex64 tensor of stored shape [4,3]: complex values need a trailing"
                        + " dimension of 2 (real, imaginary)");
    }

    @Test
    void infersTheDtypeWithoutOurMetadata() {
        Field field = new Field(
                "t",
                new FieldType(
                        true,
                        new ArrowType.FixedSizeList(6),
                        null,
                        Map.of(
                                "ARROW:extension:name",
                                "arrow.fixed_shape_tensor",
                                "ARROW:extension:metadata",
                                "{\"shape\":[2,3]}")),
                List.of(new Field("item", FieldType.nullable(new ArrowType.Int(16, true)), null)));
        assertThat(TensorColumn.fromField(field)).isEqualTo(new TensorColumn("t", DType.INT16, Shape.of(2, 3)));
    }

    @Test
    void rejectsFieldsThatAreNotTensors() {
        assertThatThrownBy(() -> TensorColumn.fromField(Field.nullable("x", ArrowType.Utf8.INSTANCE)))
                .hasMessage("Cannot read field 'x' as a tensor column: its type is Utf8");
        Field plainList = new Field(
                "l",
                FieldType.nullable(new ArrowType.FixedSizeList(2)),
                List.of(Field.nullable("item", new ArrowType.Int(8, true))));
        assertThatThrownBy(() -> TensorColumn.fromField(plainList))
                .hasMessageStartingWith("Cannot read field 'l' as a tensor column: a FixedSizeList without");
        Field mismatched = new Field(
                "m",
                new FieldType(
                        true, FixedShapeTensorType.of(Shape.of(2)), null, Map.of("tensor_broadcast.dtype", "float32")),
                List.of(Field.nullable("item", new ArrowType.Int(8, true))));
        assertThatThrownBy(() -> TensorColumn.fromField(mismatched))
                .hasMessageContaining("its metadata says float32 which is stored as FloatingPoint(SINGLE),"
                        + " but the values are Int(8, true)");
        Field permuted = new Field(
                "p",
                FieldType.nullable(
                        new FixedShapeTensorType(new TensorTypeMetadata(Shape.of(2, 3), List.of(), new int[] {1, 0}))),
                List.of(Field.nullable("item", new ArrowType.Int(8, true))));
        assertThatThrownBy(() -> TensorColumn.fromField(permuted))
                .hasMessageContaining("its permutation [1, 0] is not row-major");
    }
}
