package dev.tensorbroadcast.planner;

import static dev.tensorbroadcast.planner.Requests.expand;
import static dev.tensorbroadcast.planner.Requests.together;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PytorchRuleTest {
    @ParameterizedTest(name = "{0} to {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                // PyTorch's test_expand and the expand samples of its OpInfo
                "[1,8,1]  | [4,8,5]    | [4,8,5]",
                "[5]      | [4,8,5]    | [4,8,5]",
                "[1,5]    | [2,2,5]    | [2,2,5]",
                "[5,1,3]  | [2,5,4,3]  | [2,5,4,3]",
                "[5]      | [1,1,5]    | [1,1,5]",
                "[1,8,1]  | [4,-1,5]   | [4,8,5]",
                "[0]      | [0]        | [0]",
                "[5,1,1]  | [5,5,5]    | [5,5,5]",
                "[5,1,5]  | [5,5,5]    | [5,5,5]",
                "[5,1,5]  | [-1,5,-1]  | [5,5,5]",
                "[5,1,5]  | [-1,5,5]   | [5,5,5]",
                "[5,1]    | [5,5,5]    | [5,5,5]",
                "[1]      | [5,5,5]    | [5,5,5]",
                "[1,5]    | [1,1,5]    | [1,1,5]",
                "[]       | []         | []",
                "[]       | [1,3,2]    | [1,3,2]",
                // 1 grows to 0; -1 keeps a 0 or a 1
                "[1]      | [0]        | [0]",
                "[0]      | [-1]       | [0]",
                "[1,3]    | [-1,3]     | [1,3]",
            })
    void expands(String input, String target, String output) {
        assertThat(expand(Dialect.PYTORCH, input, target)).isEqualTo(Shape.parse(output));
    }

    @Test
    void rejectsMinusOneInALeadingNonExistingDim() {
        assertThatThrownBy(() -> expand(Dialect.PYTORCH, "[5]", "[-1,-1]"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot broadcast (5,) to (-1,-1) [pytorch]: dim 0 of the target is -1, which is not"
                        + " allowed in a new leading dim (there is no input dim to keep); give a size of 0 or more"
                        + " there");
    }

    @Test
    void checksRightToLeftAsPytorchDoes() {
        // pytorch#18901: PyTorch reports the mismatch at dim 1 before it reaches the -1 at dim 0
        assertThatThrownBy(() -> expand(Dialect.PYTORCH, "[2,3,4]", "[-1,10,-1,-1]"))
                .isInstanceOf(IncompatibleShapesException.class)
                .hasMessage("Cannot broadcast (2,3,4) to (-1,10,-1,-1) [pytorch]: input dim 0 is 2 and target dim 1 is"
                        + " 10; a non-singleton dim cannot change (the target needs 2 or -1 there)");
    }

    @Test
    void reportsTheRightmostMismatch() {
        assertThatThrownBy(() -> expand(Dialect.PYTORCH, "[2,3]", "[4,5]"))
                .isInstanceOf(IncompatibleShapesException.class)
                .hasMessage("Cannot broadcast (2,3) to (4,5) [pytorch]: dim 1 is 3 in the input and 5 in the target;"
                        + " a non-singleton dim cannot change (the target needs 3 or -1 there)");
        assertThatThrownBy(() -> expand(Dialect.PYTORCH, "[0]", "[1]")).isInstanceOf(IncompatibleShapesException.class);
    }

    @Test
    void rejectsOtherNegativesAndShortTargets() {
        // PyTorch itself lets these through and fails later (pytorch#70398, #76362); a plan cannot
        assertThatThrownBy(() -> expand(Dialect.PYTORCH, "[3]", "[-2,3]"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot broadcast (3,) to (-2,3) [pytorch]: dim 0 of the target is -2; pytorch accepts -1"
                        + " (keep the input's dim) or a size of 0 or more");
        assertThatThrownBy(() -> expand(Dialect.PYTORCH, "[64,1,1]", "[1,64]"))
                .isInstanceOf(IncompatibleShapesException.class)
                .hasMessageContaining("the input has 3 dims but the target only 2");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                // test_broadcast_shapes pairs and docstrings
                "[2];[3,1]          | [3,2]",
                "[3,2];[4,1,1]      | [4,3,2]",
                "[2];[3,2]          | [3,2]",
                "[];[]              | []",
                "[1];[4]            | [4]",
                "[4];[1]            | [4]",
                "[1];[1];[3]        | [3]",
                "[2];[3,1];[1,1,1]  | [1,3,2]",
                "[2,1,3];[3];[3,1]  | [2,3,3]",
                "[3];[1,2,1];[1,1];[5,1,1] | [5,2,3]",
            })
    void broadcastShapes(String inputs, String output) {
        assertThat(together(Dialect.PYTORCH, inputs.split(";"))).isEqualTo(Shape.parse(output));
    }

    @Test
    void broadcastShapesRejectsMismatches() {
        assertThatThrownBy(() -> together(Dialect.PYTORCH, "[3]", "[5]"))
                .isInstanceOf(IncompatibleShapesException.class)
                .hasMessageContaining("together [pytorch]");
    }
}
