package dev.tensorbroadcast.planner;

import static dev.tensorbroadcast.planner.Requests.expand;
import static dev.tensorbroadcast.planner.Requests.request;
import static dev.tensorbroadcast.planner.Requests.together;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NumpyRuleTest {
    @ParameterizedTest(name = "{0} to {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                // numpy's test_broadcast_to_succeeds
                "[]    | [0]     | [0]",
                "[]    | [1]     | [1]",
                "[]    | [3]     | [3]",
                "[1]   | [1]     | [1]",
                "[1]   | [2]     | [2]",
                "[1]   | [1,2,3] | [1,2,3]",
                "[3]   | [3]     | [3]",
                "[3]   | [1,3]   | [1,3]",
                "[3]   | [2,3]   | [2,3]",
                "[0]   | [0]     | [0]",
                "[1]   | [0]     | [0]",
                "[1,2] | [0,2]   | [0,2]",
                "[2,1] | [2,0]   | [2,0]",
                "[]    | []      | []",
                "[3]   | [3,3]   | [3,3]",
            })
    void broadcastsTo(String input, String target, String output) {
        assertThat(expand(Dialect.NUMPY, input, target)).isEqualTo(Shape.parse(output));
    }

    @ParameterizedTest(name = "{0} to {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                // numpy's test_broadcast_to_raises
                "[0]   | []",
                "[1]   | []",
                "[3]   | []",
                "[3]   | [1]",
                "[3]   | [2]",
                "[3]   | [4]",
                "[1,2] | [2,1]",
                "[1,1] | [1]",
                "[1]   | [-1]",
                "[1,2] | [-1,2]",
            })
    void rejectsWhatNumpyRejects(String input, String target) {
        assertThatThrownBy(() -> expand(Dialect.NUMPY, input, target))
                .isInstanceOf(BroadcastException.class)
                .hasMessageStartingWith("Cannot broadcast " + Shape.parse(input) + " to ")
                .hasMessageContaining("[numpy]");
    }

    @Test
    void namesTheDimAndTheAcceptedValues() {
        assertThatThrownBy(() -> expand(Dialect.NUMPY, "[2,3]", "[4,3]"))
                .isInstanceOf(IncompatibleShapesException.class)
                .hasMessage("Cannot broadcast (2,3) to (4,3) [numpy]: dim 0 is 2 in the input and 4 in the target;"
                        + " only 1 can grow (the input needs 4 or 1 there)");
        assertThatThrownBy(() -> expand(Dialect.NUMPY, "[3]", "[5,4]"))
                .isInstanceOf(IncompatibleShapesException.class)
                .hasMessage("Cannot broadcast (3,) to (5,4) [numpy]: input dim 0 is 3 and target dim 1 is 4;"
                        + " only 1 can grow (the input needs 4 or 1 there)");
        assertThatThrownBy(() -> expand(Dialect.NUMPY, "[0]", "[1]"))
                .isInstanceOf(IncompatibleShapesException.class)
                .hasMessageEndingWith("only 1 can grow (the input needs 1 there)");
    }

    @Test
    void rejectsShorterTargetsAndNegativeDims() {
        assertThatThrownBy(() -> expand(Dialect.NUMPY, "[2,3]", "[3]"))
                .isInstanceOf(IncompatibleShapesException.class)
                .hasMessage("Cannot broadcast (2,3) to (3,) [numpy]: the input has 2 dims but the target only 1;"
                        + " the target needs at least 2 dims");
        assertThatThrownBy(() -> expand(Dialect.NUMPY, "[3]", "[-1,3]"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot broadcast (3,) to (-1,3) [numpy]: dim 0 of the target is -1; numpy accepts only"
                        + " dims of 0 or more here");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                // numpy's test_broadcast_shapes_succeeds
                "[]                         | []",
                "[7]                        | [7]",
                "[1,2];[2]                  | [1,2]",
                "[1,1]                      | [1,1]",
                "[1,1];[3,4]                | [3,4]",
                "[6,7];[5,6,1];[7];[5,1,7]  | [5,6,7]",
                "[5,6,1]                    | [5,6,1]",
                "[1,3];[3,1]                | [3,3]",
                "[1,0];[0,0]                | [0,0]",
                "[0,1];[0,0]                | [0,0]",
                "[1,0];[0,1]                | [0,0]",
                "[1,1];[0,0]                | [0,0]",
                "[1,1];[1,0]                | [1,0]",
                "[1,1];[0,1]                | [0,1]",
                "[];[0]                     | [0]",
                "[0];[0,0]                  | [0,0]",
                "[0];[0,1]                  | [0,0]",
                "[1];[0,0]                  | [0,0]",
                "[];[0,0]                   | [0,0]",
                "[1,1];[0]                  | [1,0]",
                "[1];[0,1]                  | [0,1]",
                "[1];[1,0]                  | [1,0]",
                "[];[1,0]                   | [1,0]",
                "[];[0,1]                   | [0,1]",
                "[1];[3]                    | [3]",
                "[2];[3,2]                  | [3,2]",
                "[1,2];[3,1];[3,2]          | [3,2]",
            })
    void broadcastShapes(String inputs, String output) {
        assertThat(together(Dialect.NUMPY, inputs.split(";"))).isEqualTo(Shape.parse(output));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                // numpy's test_broadcast_shapes_raises
                "[3];[4]",
                "[2,3];[2]",
                "[3];[3];[4]",
                "[1,3,4];[2,3,3]",
                "[1,2];[3,1];[3,2];[10,5]",
                "[2];[2,3]",
            })
    void broadcastShapesRejects(String inputs) {
        assertThatThrownBy(() -> together(Dialect.NUMPY, inputs.split(";")))
                .isInstanceOf(IncompatibleShapesException.class)
                .hasMessageContaining("together [numpy]")
                .hasMessageEndingWith("sizes must be equal or 1");
    }

    @Test
    void broadcastShapesNamesBothInputs() {
        assertThatThrownBy(() -> together(Dialect.NUMPY, "[3]", "[4]"))
                .hasMessage("Cannot broadcast (3,) and (4,) together [numpy]: output dim 0 is 3 in input 0 (3,) and 4"
                        + " in input 1 (4,); sizes must be equal or 1");
        assertThatThrownBy(() -> together(Dialect.NUMPY, "[1,2]", "[3,1]", "[3,2]", "[10,5]"))
                .hasMessage("Cannot broadcast (1,2), (3,1), (3,2), (10,5) together [numpy]: output dim 0 is 3 in"
                        + " input 1 (3,1) and 10 in input 3 (10,5); sizes must be equal or 1");
    }

    @Test
    void broadcastToTakesOneInputAndNoOtherArguments() {
        assertThatThrownBy(() ->
                        request(Dialect.NUMPY, "[1]", "[2]").target(2).build().plan())
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot plan a broadcast [numpy]: np.broadcast_to takes exactly one input, got 2 input"
                        + " shapes");
        assertThatThrownBy(() -> request(Dialect.NUMPY, "[1]")
                        .target(2)
                        .mode(BroadcastMode.PDPD)
                        .build()
                        .plan())
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot plan a broadcast [numpy]: numpy takes no mode (mode); it takes a target shape"
                        + " (shape)");
        assertThatThrownBy(() ->
                        request(Dialect.NUMPY, "[1]").target(2).axis(0).build().plan())
                .hasMessageContaining("numpy takes no axis (axis)");
    }

    @Test
    void mapsInputsRightAligned() {
        BroadcastPlan plan =
                request(Dialect.NUMPY, "[3,1]").target(2, 3, 4).build().plan();
        assertThat(plan.input(0).outputAxes()).containsExactly(1, 2);
        assertThat(plan.input(0).sourceStrides(plan.output())).containsExactly(0, 1, 0);
    }
}
