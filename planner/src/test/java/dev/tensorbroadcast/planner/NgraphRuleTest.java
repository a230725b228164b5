package dev.tensorbroadcast.planner;

import static dev.tensorbroadcast.planner.Requests.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class NgraphRuleTest {
    private static BroadcastPlan plan(String input, String shape, long... axes) {
        return request(Dialect.NGRAPH, input)
                .target(TargetShape.parse(shape))
                .broadcastAxes(axes)
                .build()
                .plan();
    }

    @Test
    void seedExamples() {
        // Broadcast([a,b,c], Shape{2,3}, AxisSet{0}) repeats the row; AxisSet{1} repeats each element
        BroadcastPlan rows = plan("[3]", "[2,3]", 0);
        assertThat(rows.output()).isEqualTo(Shape.of(2, 3));
        assertThat(rows.input(0).outputAxes()).containsExactly(1);
        assertThat(sources(rows)).containsExactly(0, 1, 2, 0, 1, 2);
        BroadcastPlan columns = plan("[3]", "[3,2]", 1);
        assertThat(columns.output()).isEqualTo(Shape.of(3, 2));
        assertThat(columns.input(0).outputAxes()).containsExactly(0);
        assertThat(sources(columns)).containsExactly(0, 0, 1, 1, 2, 2);
    }

    @Test
    void typePropCases() {
        assertThat(plan("[2,4]", "[2,3,4]", 1).output()).isEqualTo(Shape.of(2, 3, 4));
        assertThat(plan("[]", "[2,3]", 0, 1).output()).isEqualTo(Shape.of(2, 3));
        assertThat(plan("[2,3]", "[2,3]").output()).isEqualTo(Shape.of(2, 3));
        assertThat(plan("[4]", "[2,0,4]", 0, 1).output()).isEqualTo(Shape.of(2, 0, 4));
        assertThat(plan("[2,4]", "[5,2,6,4,7]", 0, 2, 4).input(0).outputAxes()).containsExactly(1, 3);
    }

    @Test
    void rejectsAxesOutOfRangeOrRepeated() {
        assertThatThrownBy(() -> plan("[2,4]", "[2,3,4]", 1, 3))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot broadcast (2,4) to (2,3,4) [ngraph]: broadcast axis 3 is out of range; axes must be"
                        + " from 0 to 2 for a rank-3 output");
        assertThatThrownBy(() -> plan("[2,4]", "[2,3,4]", -1))
                .hasMessageContaining("broadcast axis -1 is out of range");
        assertThatThrownBy(() -> plan("[4]", "[2,3,4]", 1, 1))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot broadcast (4,) to (2,3,4) [ngraph]: broadcast axis 1 is given twice in [1, 1]; each"
                        + " axis may appear once");
    }

    @Test
    void requiresTheExactRemainingShape() {
        assertThatThrownBy(() -> plan("[2,4]", "[2,3,4,5]", 1))
                .isInstanceOf(IncompatibleShapesException.class)
                .hasMessage("Cannot broadcast (2,4) to (2,3,4,5) [ngraph]: with broadcast axes [1] the input must have"
                        + " shape (2,4,5) (the target without those axes)");
        assertThatThrownBy(() -> plan("[2,4]", "[2,3,5]", 1)).isInstanceOf(IncompatibleShapesException.class);
        // no 1-broadcasting in nGraph: dims match exactly
        assertThatThrownBy(() -> plan("[1,4]", "[2,3,4]", 1)).isInstanceOf(IncompatibleShapesException.class);
    }

    @Test
    void requiresAxesAndTakesNoOtherArguments() {
        assertThatThrownBy(() ->
                        request(Dialect.NGRAPH, "[3]").target(2, 3).build().plan())
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot broadcast (3,) to (2,3) [ngraph]: ngraph needs the broadcast axes"
                        + " (broadcastAxes), the output axes that are new; [] if there are none");
        assertThatThrownBy(() -> request(Dialect.NGRAPH, "[3]")
                        .target(2, 3)
                        .axesMapping(1)
                        .build()
                        .plan())
                .hasMessage("Cannot plan a broadcast [ngraph]: ngraph takes no axes mapping (axesMapping); it takes"
                        + " a target shape (shape), broadcast axes (broadcastAxes)");
    }

    static long[] sources(BroadcastPlan plan) {
        CopyProgram program = plan.copyProgram(0);
        long[] sources = new long[(int) program.elements()];
        for (int i = 0; i < sources.length; i++) {
            sources[i] = program.sourceIndex(i);
        }
        return sources;
    }
}
