package dev.tensorbroadcast.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class NumpyRuleTest {
    private static BroadcastPlan plan(String input, String target) {
        return BroadcastRequest.builder(Dialect.NUMPY).input(Shape.parse(input)).target(TargetShape.parse(target))
                .build().plan();
    }

    private static BroadcastPlan shapes(String... inputs) {
        BroadcastRequest.Builder builder = BroadcastRequest.builder(Dialect.NUMPY);
        for (String input : inputs) {
            builder.input(Shape.parse(input));
        }
        return builder.build().plan();
    }

    @Test
    void broadcastsToTarget() {
        assertThat(plan("[3]", "[2,3]").output()).isEqualTo(Shape.of(2, 3));
        assertThat(plan("[1,3]", "[4,3]").output()).isEqualTo(Shape.of(4, 3));
        assertThat(plan("[]", "[5,0,2]").output()).isEqualTo(Shape.of(5, 0, 2));
        assertThat(plan("[1]", "[0]").output()).isEqualTo(Shape.of(0));
        assertThat(plan("[0]", "[4,0]").output()).isEqualTo(Shape.of(4, 0));
        assertThat(plan("[]", "[]").output()).isEqualTo(Shape.scalar());
    }

    @Test
    void rejectsGrowingANonSingletonDim() {
        assertThatThrownBy(() -> plan("[2,3]", "[4,3]"))
                .isInstanceOf(IncompatibleShapesException.class)
                .hasMessage("Cannot broadcast (2,3) to (4,3) [numpy]: dim 0 is 2 in the input and 4 in the target;"
                        + " only 1 can grow (the input needs 4 or 1 there)");
        assertThatThrownBy(() -> plan("[0]", "[1]")).isInstanceOf(IncompatibleShapesException.class);
        assertThatThrownBy(() -> plan("[3]", "[5,4]"))
                .hasMessage("Cannot broadcast (3,) to (5,4) [numpy]: input dim 0 is 3 and target dim 1 is 4;"
                        + " only 1 can grow (the input needs 4 or 1 there)");
    }

    @Test
    void rejectsShorterTargetsAndNegativeDims() {
        assertThatThrownBy(() -> plan("[2,3]", "[3]"))
                .isInstanceOf(IncompatibleShapesException.class)
                .hasMessage("Cannot broadcast (2,3) to (3,) [numpy]: the input has 2 dims but the target only 1;"
                        + " the target needs at least 2 dims");
        assertThatThrownBy(() -> plan("[3]", "[-1,3]"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot broadcast (3,) to (-1,3) [numpy]: dim 0 of the target is -1; numpy accepts only"
                        + " dims of 0 or more here");
    }

    @Test
    void broadcastShapesOfSeveralInputs() {
        assertThat(shapes("[4,1,3]", "[2,3]", "[4,2,1]").output()).isEqualTo(Shape.of(4, 2, 3));
        assertThat(shapes("[1]", "[0]").output()).isEqualTo(Shape.of(0));
        assertThat(shapes("[6,7]").output()).isEqualTo(Shape.of(6, 7));
        assertThatThrownBy(() -> shapes("[2]", "[3]"))
                .isInstanceOf(IncompatibleShapesException.class)
                .hasMessage("Cannot broadcast (2,) and (3,) together [numpy]: output dim 0 is 2 in input 0 (2,) and 3"
                        + " in input 1 (3,); sizes must be equal or 1");
    }

    @Test
    void copyProgramMergesAndRepeats() {
        CopyProgram leading = plan("[1,4096]", "[65536,4096]").copyProgram(0);
        assertThat(leading.counts()).containsExactly(65536, 4096);
        assertThat(leading.strides()).containsExactly(0, 1);
        CopyProgram inner = plan("[8,1]", "[8,4096]").copyProgram(0);
        assertThat(inner.innermostRepeats()).isTrue();
        CopyProgram same = plan("[2,3,4]", "[2,3,4]").copyProgram(0);
        assertThat(same.counts()).containsExactly(24);
        assertThat(same.innermostRun()).isEqualTo(24);
    }
}
