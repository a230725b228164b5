package dev.tensorbroadcast.planner;

import static dev.tensorbroadcast.planner.Requests.expand;
import static dev.tensorbroadcast.planner.Requests.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OnnxRuleTest {
    @ParameterizedTest(name = "{0} with shape {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                // ONNX's backend and shape inference tests
                "[3,1]   | [2,1,6] | [2,3,6]",
                "[3,1]   | [3,4]   | [3,4]",
                "[]      | [4,8]   | [4,8]",
                // the output may be larger than shape: a 1 keeps the input's dim, a short shape keeps the leading dims
                "[2,3,4] | [4]     | [2,3,4]",
                "[2,3,4] | [1]     | [2,3,4]",
                "[2,3,4] | []      | [2,3,4]",
                "[3,1]   | [1,1,5] | [1,3,5]",
                // zeros follow numpy's two-way rule
                "[0,3]   | [1,1]   | [0,3]",
                "[1,3]   | [0,1]   | [0,3]",
                "[0]     | [0]     | [0]",
            })
    void expandsBothWays(String input, String shape, String output) {
        assertThat(expand(Dialect.ONNX, input, shape)).isEqualTo(Shape.parse(output));
    }

    @Test
    void mapsTheInputRightAlignedEvenWhenTheShapeIsShorter() {
        BroadcastPlan plan =
                request(Dialect.ONNX, "[3,1]").target(1, 1, 5).build().plan();
        assertThat(plan.input(0).outputAxes()).containsExactly(1, 2);
        assertThat(plan.copyProgram(0).counts()).containsExactly(3, 5);
        assertThat(plan.copyProgram(0).strides()).containsExactly(1, 0);
    }

    @Test
    void rejectsIncompatibleDimsAndNegativeValues() {
        assertThatThrownBy(() -> expand(Dialect.ONNX, "[3,2]", "[3,4]"))
                .isInstanceOf(IncompatibleShapesException.class)
                .hasMessage("Cannot broadcast (3,2) to (3,4) [onnx]: output dim 1 is 2 in the input and 4 in the"
                        + " shape; one of them must be 1, or both equal (the shape needs 2 or 1 there)");
        assertThatThrownBy(() -> expand(Dialect.ONNX, "[0]", "[3]")).isInstanceOf(IncompatibleShapesException.class);
        // -1 means nothing special to Expand (onnx/onnx#2312)
        assertThatThrownBy(() -> expand(Dialect.ONNX, "[3]", "[-1,3]"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot broadcast (3,) to (-1,3) [onnx]: dim 0 of the target is -1; onnx accepts only"
                        + " dims of 0 or more here");
        assertThatThrownBy(() -> request(Dialect.ONNX, "[3]").build().plan())
                .hasMessage("Cannot plan a broadcast [onnx]: onnx needs a target shape (shape)");
    }
}
