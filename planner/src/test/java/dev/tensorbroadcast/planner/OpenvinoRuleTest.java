package dev.tensorbroadcast.planner;

import static dev.tensorbroadcast.planner.Requests.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OpenvinoRuleTest {
    private static BroadcastRequest.Builder mode(BroadcastMode mode, String input, String target) {
        return request(Dialect.OPENVINO, input)
                .target(TargetShape.parse(target))
                .mode(mode);
    }

    @ParameterizedTest(name = "{0} to {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "[3,1] | [2,3,6] | [2,3,6]",
                "[1]   | [0]     | [0]",
                "[]    | [2,2]   | [2,2]",
            })
    void numpyModeIsTheDefault(String input, String target, String output) {
        assertThat(request(Dialect.OPENVINO, input)
                        .target(TargetShape.parse(target))
                        .build()
                        .plan()
                        .output())
                .isEqualTo(Shape.parse(output));
        assertThat(mode(BroadcastMode.NUMPY, input, target).build().plan().output())
                .isEqualTo(Shape.parse(output));
    }

    @Test
    void numpyModeOutputIsTheTarget() {
        assertThatThrownBy(() -> mode(BroadcastMode.NUMPY, "[5]", "[1]").build().plan())
                .isInstanceOf(IncompatibleShapesException.class)
                .hasMessage("Cannot broadcast (5,) to (1,) [openvino numpy]: dim 0 is 5 in the input and 1 in the"
                        + " target; only 1 can grow (the input needs 1 there)");
        assertThatThrownBy(
                        () -> mode(BroadcastMode.NUMPY, "[2,3]", "[3]").build().plan())
                .isInstanceOf(IncompatibleShapesException.class);
    }

    @Test
    void explicitModeMapsEachInputAxis() {
        BroadcastPlan plan = mode(BroadcastMode.EXPLICIT, "[3,1]", "[2,3,1]")
                .axesMapping(1, 2)
                .build()
                .plan();
        assertThat(plan.output()).isEqualTo(Shape.of(2, 3, 1));
        assertThat(plan.input(0).outputAxes()).containsExactly(1, 2);
        BroadcastPlan channels = mode(BroadcastMode.EXPLICIT, "[16]", "[1,16,50,50]")
                .axesMapping(1)
                .build()
                .plan();
        assertThat(channels.output()).isEqualTo(Shape.of(1, 16, 50, 50));
        assertThat(channels.copyProgram(0).counts()).containsExactly(16, 2500);
        assertThat(channels.copyProgram(0).strides()).containsExactly(1, 0);
        // an input dim of 1 may grow, which nGraph's v1 did not allow
        assertThat(mode(BroadcastMode.EXPLICIT, "[3,1]", "[2,3,3]")
                        .axesMapping(1, 2)
                        .build()
                        .plan()
                        .output())
                .isEqualTo(Shape.of(2, 3, 3));
        // a scalar may name one target axis of size 1
        assertThat(mode(BroadcastMode.EXPLICIT, "[]", "[2,1]")
                        .axesMapping(1)
                        .build()
                        .plan()
                        .output())
                .isEqualTo(Shape.of(2, 1));
        assertThat(mode(BroadcastMode.EXPLICIT, "[]", "[2,3]")
                        .axesMapping()
                        .build()
                        .plan()
                        .output())
                .isEqualTo(Shape.of(2, 3));
    }

    @Test
    void explicitModeRejectsBadMappings() {
        assertThatThrownBy(() -> mode(BroadcastMode.EXPLICIT, "[3,1]", "[2,3,1]")
                        .axesMapping(1, 2, 3)
                        .build()
                        .plan())
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot broadcast (3,1) to (2,3,1) [openvino explicit]: the axes mapping [1, 2, 3] has 3"
                        + " entries but the input has 2 dims; give one output axis per input dim");
        assertThatThrownBy(() -> mode(BroadcastMode.EXPLICIT, "[3,1]", "[2,1,3]")
                        .axesMapping(2, 1)
                        .build()
                        .plan())
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot broadcast (3,1) to (2,1,3) [openvino explicit]: the axes mapping [2, 1] is not"
                        + " strictly increasing; broadcast does not transpose or repeat axes");
        assertThatThrownBy(() -> mode(BroadcastMode.EXPLICIT, "[3,1]", "[2,3,1]")
                        .axesMapping(1, 3)
                        .build()
                        .plan())
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot broadcast (3,1) to (2,3,1) [openvino explicit]: axes mapping [1, 3] entry 1 is 3;"
                        + " each entry must be an output axis from 0 to 2");
        assertThatThrownBy(() -> mode(BroadcastMode.EXPLICIT, "[3,2]", "[2,3,3]")
                        .axesMapping(1, 2)
                        .build()
                        .plan())
                .isInstanceOf(IncompatibleShapesException.class)
                .hasMessage("Cannot broadcast (3,2) to (2,3,3) [openvino explicit]: input dim 1 is 2 and maps to"
                        + " target dim 2, which is 3; the target needs 2 there, or the input 1");
        assertThatThrownBy(() -> mode(BroadcastMode.EXPLICIT, "[3,3]", "[2,3,1]")
                        .axesMapping(1, 1)
                        .build()
                        .plan())
                .hasMessageContaining("is not strictly increasing");
        assertThatThrownBy(() -> mode(BroadcastMode.EXPLICIT, "[]", "[2,3]")
                        .axesMapping(1)
                        .build()
                        .plan())
                .isInstanceOf(IncompatibleShapesException.class)
                .hasMessageContaining("a scalar can only map to a dim of 1");
        assertThatThrownBy(() ->
                        mode(BroadcastMode.EXPLICIT, "[3]", "[2,3]").build().plan())
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("explicit mode needs an axes mapping (axesMapping)");
        assertThatThrownBy(() -> mode(BroadcastMode.NUMPY, "[3]", "[2,3]")
                        .axesMapping(1)
                        .build()
                        .plan())
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot plan a broadcast [openvino]: openvino takes no axes mapping (axesMapping); it"
                        + " takes a target shape (shape), a mode (mode)");
    }

    @ParameterizedTest(name = "{0} with {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "[3,1]   | [2,1,6] | [2,3,6]",
                "[2,3,4] | [4]     | [2,3,4]",
                "[3,1]   | [3,4]   | [3,4]",
                "[1]     | [0]     | [0]",
            })
    void bidirectionalModeIsOnnxExpand(String input, String target, String output) {
        assertThat(mode(BroadcastMode.BIDIRECTIONAL, input, target)
                        .build()
                        .plan()
                        .output())
                .isEqualTo(Shape.parse(output));
    }

    @Test
    void bidirectionalModeRejectsMismatches() {
        assertThatThrownBy(() ->
                        mode(BroadcastMode.BIDIRECTIONAL, "[3]", "[4]").build().plan())
                .isInstanceOf(IncompatibleShapesException.class)
                .hasMessageContaining("[openvino bidirectional]: output dim 0 is 3 in the input and 4 in the shape");
    }

    @Test
    void pdpdModeAlignsAtTheAxis() {
        BroadcastPlan plan =
                mode(BroadcastMode.PDPD, "[3,1]", "[2,3,6]").axis(1).build().plan();
        assertThat(plan.output()).isEqualTo(Shape.of(2, 3, 6));
        assertThat(plan.input(0).outputAxes()).containsExactly(1, 2);
        // -1 (the default) aligns to the right
        assertThat(mode(BroadcastMode.PDPD, "[3,1]", "[2,3,6]").build().plan().output())
                .isEqualTo(Shape.of(2, 3, 6));
        // a 1 in the target takes the input's dim
        assertThat(mode(BroadcastMode.PDPD, "[3,5]", "[2,1,5]")
                        .axis(1)
                        .build()
                        .plan()
                        .output())
                .isEqualTo(Shape.of(2, 3, 5));
        // trailing target dims beyond the input are new
        BroadcastPlan inner =
                mode(BroadcastMode.PDPD, "[3,4]", "[2,3,4,5]").axis(1).build().plan();
        assertThat(inner.output()).isEqualTo(Shape.of(2, 3, 4, 5));
        assertThat(inner.input(0).sourceStrides(inner.output())).containsExactly(0, 4, 1, 0);
    }

    @Test
    void pdpdModeRejectsBadAxesAndDims() {
        assertThatThrownBy(() -> mode(BroadcastMode.PDPD, "[3,4]", "[2,3,4]")
                        .axis(2)
                        .build()
                        .plan())
                .isInstanceOf(IncompatibleShapesException.class)
                .hasMessage("Cannot broadcast (3,4) to (2,3,4) [openvino pdpd]: the input's 2 dims do not fit into the"
                        + " target's 3 dims from axis 2; axis may be -1 or 0 to 1");
        assertThatThrownBy(() -> mode(BroadcastMode.PDPD, "[3]", "[2,3]")
                        .axis(-2)
                        .build()
                        .plan())
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot broadcast (3,) to (2,3) [openvino pdpd]: axis is -2; pdpd mode takes -1 (align to"
                        + " the right) or an output axis of 0 or more");
        assertThatThrownBy(
                        () -> mode(BroadcastMode.PDPD, "[3]", "[2,4]").build().plan())
                .isInstanceOf(IncompatibleShapesException.class)
                .hasMessage("Cannot broadcast (3,) to (2,4) [openvino pdpd]: input dim 0 is 3 and target dim 1 is 4;"
                        + " the target needs 3 or 1 there, or the input 1");
        assertThatThrownBy(() -> mode(BroadcastMode.NUMPY, "[3]", "[2,3]")
                        .axis(1)
                        .build()
                        .plan())
                .hasMessageContaining("openvino takes no axis (axis)");
    }

    @Test
    void rejectsNegativeTargets() {
        assertThatThrownBy(() ->
                        mode(BroadcastMode.BIDIRECTIONAL, "[3]", "[-1]").build().plan())
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot broadcast (3,) to (-1,) [openvino bidirectional]: dim 0 of the target is -1;"
                        + " openvino accepts only dims of 0 or more here");
    }
}
