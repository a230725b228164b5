package dev.tensorbroadcast.planner;

import static dev.tensorbroadcast.planner.Requests.expand;
import static dev.tensorbroadcast.planner.Requests.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MindsporeRuleTest {
    @ParameterizedTest(name = "{0} to {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                // the seed's examples and rules
                "[3]         | [2,3]           | [2,3]",
                "[2,1]       | [-1,2]          | [2,2]",
                "[2,3]       | [2,3]           | [2,3]",
                "[3,3]       | [-1,3]          | [3,3]",
                "[1,3]       | [8,3]           | [8,3]",
                "[1,5,9]     | [3,1,4,1,5,9]   | [3,1,4,1,5,9]",
                // MindSpore's own tests
                "[2,3,1,5,1] | [4,5,2,3,4,5,6] | [4,5,2,3,4,5,6]",
                "[4,5,1]     | [3,5,7,4,5,6]   | [3,5,7,4,5,6]",
                "[1,4,1,6]   | [8,5,7,4,5,6]   | [8,5,7,4,5,6]",
                "[3,1,5,1]   | [3,4,5,6]       | [3,4,5,6]",
                "[4,5]       | [2,3,4,5]       | [2,3,4,5]",
                "[1]         | [4,5]           | [4,5]",
                "[128,1,1,1] | [128,1,77,77]   | [128,1,77,77]",
                "[3,1,5,1]   | [-1,4,5,6]      | [3,4,5,6]",
                "[4,5]       | [2,3,-1,5]      | [2,3,4,5]",
                "[4,5]       | [2,3,-1,-1]     | [2,3,4,5]",
                // -1 keeps the input's dim as it is, a 1 included
                "[3,1,5,1]   | [-1,-1,5,6]     | [3,1,5,6]",
                // a 0 in the target is fine once the input is empty
                "[0,1]       | [0,4]           | [0,4]",
                "[0,3]       | [2,-1,3]        | [2,0,3]",
                "[]          | []              | []",
            })
    void broadcastsTo(String input, String target, String output) {
        assertThat(expand(Dialect.MINDSPORE, input, target)).isEqualTo(Shape.parse(output));
    }

    @Test
    void rejectsMinusOneInANewLeadingDim() {
        assertThatThrownBy(() -> expand(Dialect.MINDSPORE, "[1,5,9]", "[3,-1,4,1,5,9]"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot broadcast (1,5,9) to (3,-1,4,1,5,9) [mindspore]: dim 1 of the target is -1 but"
                        + " the input has no dim there to keep; -1 is only allowed from dim 3 on");
        assertThatThrownBy(() -> expand(Dialect.MINDSPORE, "[4,5]", "[2,-1,4,5]"))
                .isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> expand(Dialect.MINDSPORE, "[4,5]", "[-1,1,-1,-1]"))
                .hasMessageContaining("dim 0 of the target is -1");
    }

    @Test
    void rejectsMismatchedDims() {
        assertThatThrownBy(() -> expand(Dialect.MINDSPORE, "[2,3]", "[2,4]"))
                .isInstanceOf(IncompatibleShapesException.class)
                .hasMessage("Cannot broadcast (2,3) to (2,4) [mindspore]: dim 1 is 3 in the input and 4 in the target;"
                        + " the target needs 3, 1 in the input, or -1 there");
    }

    @Test
    void rejectsAZeroInTheTargetForANonEmptyInput() {
        assertThatThrownBy(() -> expand(Dialect.MINDSPORE, "[]", "[0]"))
                .isInstanceOf(IncompatibleShapesException.class)
                .hasMessage("Cannot broadcast () to (0,) [mindspore]: dim 0 of the target is 0 but the input has no"
                        + " 0-size dim; mindspore only allows a 0 in the target for an empty input");
        // numpy allows both of these; MindSpore does not
        assertThatThrownBy(() -> expand(Dialect.MINDSPORE, "[1]", "[0]"))
                .isInstanceOf(IncompatibleShapesException.class);
        assertThatThrownBy(() -> expand(Dialect.MINDSPORE, "[3]", "[0,3]"))
                .isInstanceOf(IncompatibleShapesException.class);
        // the zero check comes before the check of -1
        assertThatThrownBy(() -> expand(Dialect.MINDSPORE, "[3]", "[-1,0]")).hasMessageContaining("is 0 but");
    }

    @Test
    void rejectsOtherNegativesRankAndMissingTarget() {
        assertThatThrownBy(() -> expand(Dialect.MINDSPORE, "[1]", "[-2]"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot broadcast (1,) to (-2,) [mindspore]: dim 0 of the target is -2; mindspore accepts"
                        + " -1 or a size of 0 or more");
        assertThatThrownBy(() -> expand(Dialect.MINDSPORE, "[2,3]", "[3]"))
                .isInstanceOf(IncompatibleShapesException.class)
                .hasMessageContaining("the input has 2 dims but the target only 1");
        assertThatThrownBy(() -> request(Dialect.MINDSPORE, "[2,3]").build().plan())
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot plan a broadcast [mindspore]: mindspore needs a target shape (shape)");
    }
}
