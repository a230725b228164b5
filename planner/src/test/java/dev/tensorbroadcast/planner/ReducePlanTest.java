package dev.tensorbroadcast.planner;

import static dev.tensorbroadcast.planner.Requests.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ReducePlanTest {
    /** Sums {@code gradient} (output-shaped) back to the input with the plan's reverse program, in one range. */
    static double[] reduce(ReducePlan plan, double[] gradient) {
        double[] sum = new double[Math.toIntExact(plan.input().elements())];
        plan.program().reduce(0, gradient.length, 0, new ArraySink(sum, gradient, 0));
        return sum;
    }

    static double[] iota(long count) {
        double[] values = new double[Math.toIntExact(count)];
        for (int i = 0; i < values.length; i++) {
            values[i] = i + 1;
        }
        return values;
    }

    private static ReducePlan ngraph(String input, String shape, long... axes) {
        BroadcastPlan plan = request(Dialect.NGRAPH, input)
                .target(TargetShape.parse(shape))
                .broadcastAxes(axes)
                .build()
                .plan();
        return ReducePlan.of(plan, 0);
    }

    @Test
    void seedExamplesSumOverTheBroadcastAxes() {
        // forward [a,b,c] -> [[a,b,c],[a,b,c]]: the backprop sums the two rows
        ReducePlan rows = ngraph("[3]", "[2,3]", 0);
        assertThat(rows.summedAxes()).containsExactly(0);
        assertThat(reduce(rows, new double[] {1, 2, 3, 10, 20, 30})).containsExactly(11, 22, 33);
        // forward [a,b,c] -> [[a,a],[b,b],[c,c]]: the backprop sums each row
        ReducePlan columns = ngraph("[3]", "[3,2]", 1);
        assertThat(columns.summedAxes()).containsExactly(1);
        assertThat(reduce(columns, new double[] {1, 2, 3, 4, 5, 6})).containsExactly(3, 7, 11);
    }

    @Test
    void pytorchExpandSumsNewLeadingDimsAndGrownOnes() {
        BroadcastPlan plan = request(Dialect.PYTORCH, "[3,1]")
                .target(TargetShape.parse("[2,3,4]"))
                .build()
                .plan();
        ReducePlan reduce = ReducePlan.of(plan, 0);
        assertThat(reduce.summedAxes()).containsExactly(0, 2);
        assertThat(reduce.copies()).isEqualTo(8);
        assertThat(reduce.regime()).isEqualTo(ReducePlan.Regime.ROWS_SUMMED);
        // the reference: numpy's grad.sum(axis=(0, 2)) of 1..24 laid out as (2,3,4)
        assertThat(reduce(reduce, iota(24))).containsExactly(10 + 58, 26 + 74, 42 + 90);
    }

    @Test
    void keptRowsAreTheirOwnRegime() {
        BroadcastPlan plan = request(Dialect.NUMPY, "[4,1,2]")
                .target(TargetShape.parse("[4,3,2]"))
                .build()
                .plan();
        ReducePlan reduce = ReducePlan.of(plan, 0);
        assertThat(reduce.regime()).isEqualTo(ReducePlan.Regime.ROWS_KEPT);
        assertThat(reduce.summedAxes()).containsExactly(1);
        assertThat(reduce.outputRowElements()).isEqualTo(6);
        assertThat(reduce.inputRowElements()).isEqualTo(2);
        assertThat(reduce.inputRows(6, 18)).isEqualTo(new SourceRows(1, 3));
        double[] sum = reduce(reduce, iota(24));
        // row 0 of the gradient is 1..6 as (3,2): columns sum to 1+3+5 and 2+4+6
        assertThat(sum).startsWith(9, 12).endsWith(19 + 21 + 23, 20 + 22 + 24);
    }

    @Test
    void aRowOfOneIsSummedEvenWhenTheInputHasTheAxis() {
        BroadcastPlan plan = request(Dialect.NUMPY, "[1,4]")
                .target(TargetShape.parse("[5,4]"))
                .build()
                .plan();
        assertThat(ReducePlan.of(plan, 0).regime()).isEqualTo(ReducePlan.Regime.ROWS_SUMMED);
        assertThat(ReducePlan.of(plan, 0).summedAxes()).containsExactly(0);
    }

    @Test
    void openvinoExplicitSumsTheAxesOutsideTheMapping() {
        BroadcastPlan plan = request(Dialect.OPENVINO, "[3]")
                .target(TargetShape.parse("[2,3,4]"))
                .mode(BroadcastMode.EXPLICIT)
                .axesMapping(1)
                .build()
                .plan();
        ReducePlan reduce = ReducePlan.of(plan, 0);
        assertThat(reduce.summedAxes()).containsExactly(0, 2);
        assertThat(reduce(reduce, iota(24))).containsExactly(10 + 58, 26 + 74, 42 + 90);
    }

    @Test
    void eachInputOfAJointBroadcastHasItsOwnReduce() {
        BroadcastPlan plan = request(Dialect.PADDLE, "[2,1]", "[3]").build().plan();
        assertThat(ReducePlan.of(plan, 0).summedAxes()).containsExactly(1);
        assertThat(ReducePlan.of(plan, 1).summedAxes()).containsExactly(0);
        assertThat(reduce(ReducePlan.of(plan, 1), iota(6))).containsExactly(5, 7, 9);
        assertThatThrownBy(() -> ReducePlan.of(plan, 2))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot plan reduce: input index 2 is not in [0, 2)");
    }

    @Test
    void anEmptyOutputGivesZerosAndAnEmptyInputNothing() {
        BroadcastPlan zeros = request(Dialect.NUMPY, "[1,3]")
                .target(TargetShape.parse("[0,3]"))
                .build()
                .plan();
        assertThat(reduce(ReducePlan.of(zeros, 0), new double[0])).containsExactly(0, 0, 0);
        assertThat(ReducePlan.of(zeros, 0).copies()).isZero();
        BroadcastPlan empty = request(Dialect.NUMPY, "[0]")
                .target(TargetShape.parse("[2,0]"))
                .build()
                .plan();
        assertThat(reduce(ReducePlan.of(empty, 0), new double[0])).isEmpty();
        // each of the input's (absent) elements has two copies, one per entry of the new axis
        assertThat(ReducePlan.of(empty, 0).copies()).isEqualTo(2);
    }

    @Test
    void aScalarInputSumsEverything() {
        BroadcastPlan plan = request(Dialect.NUMPY, "[]")
                .target(TargetShape.parse("[3,4]"))
                .build()
                .plan();
        ReducePlan reduce = ReducePlan.of(plan, 0);
        assertThat(reduce.summedAxes()).containsExactly(0, 1);
        assertThat(reduce.regime()).isEqualTo(ReducePlan.Regime.ROWS_SUMMED);
        assertThat(reduce(reduce, iota(12))).containsExactly(78);
    }

    /** Adds gradient values into a double array: the reference sink the properties check the program with. */
    record ArraySink(double[] sum, double[] gradient, int gradientStart) implements ReduceSink {
        @Override
        public void add(long sourceOffset, long gradientOffset, long length) {
            for (int i = 0; i < length; i++) {
                sum[Math.toIntExact(sourceOffset) + i] += gradient[gradientStart + Math.toIntExact(gradientOffset) + i];
            }
        }

        @Override
        public void sum(long sourceOffset, long gradientOffset, long length) {
            for (int i = 0; i < length; i++) {
                sum[Math.toIntExact(sourceOffset)] += gradient[gradientStart + Math.toIntExact(gradientOffset) + i];
            }
        }

        /** Its own loop, not the default's adds: the properties check the program's runs against the meaning. */
        @Override
        public void addRepeated(long sourceOffset, long gradientOffset, long length, long count, long gradientStride) {
            for (long k = 0; k < count; k++) {
                for (int i = 0; i < length; i++) {
                    sum[Math.toIntExact(sourceOffset) + i] +=
                            gradient[gradientStart + Math.toIntExact(gradientOffset + k * gradientStride) + i];
                }
            }
        }
    }

    /** The sink calls a reverse program makes, as text. */
    record CallLog(java.util.List<String> calls) implements ReduceSink {
        @Override
        public void add(long sourceOffset, long gradientOffset, long length) {
            calls.add("add " + sourceOffset + " " + gradientOffset + " " + length);
        }

        @Override
        public void sum(long sourceOffset, long gradientOffset, long length) {
            calls.add("sum " + sourceOffset + " " + gradientOffset + " " + length);
        }

        @Override
        public void addRepeated(long sourceOffset, long gradientOffset, long length, long count, long gradientStride) {
            calls.add("addRepeated " + sourceOffset + " " + gradientOffset + " " + length + " x" + count + " by "
                    + gradientStride);
        }
    }

    @Test
    void rowsAddedIntoOneRunAreOneCallPerRange() {
        // [1,4] -> [5,4]: the five gradient rows add into the same four sums, one call for all of them
        CopyProgram rows = ReducePlan.of(
                        request(Dialect.NUMPY, "[1,4]")
                                .target(TargetShape.parse("[5,4]"))
                                .build()
                                .plan(),
                        0)
                .program();
        CallLog whole = new CallLog(new java.util.ArrayList<>());
        rows.reduce(0, 20, 0, whole);
        assertThat(whole.calls()).containsExactly("addRepeated 0 0 4 x5 by 4");
        // a range that starts and ends inside rows: its partial rows are adds, the whole ones between one call
        CallLog partial = new CallLog(new java.util.ArrayList<>());
        rows.reduce(6, 17, 0, partial);
        assertThat(partial.calls()).containsExactly("add 2 0 2", "addRepeated 0 2 4 x2 by 4", "add 0 10 1");
        // rows kept, [4,1,2] -> [4,3,2]: each result row's three gradient runs in one call
        CopyProgram kept = ReducePlan.of(
                        request(Dialect.NUMPY, "[4,1,2]")
                                .target(TargetShape.parse("[4,3,2]"))
                                .build()
                                .plan(),
                        0)
                .program();
        CallLog keptCalls = new CallLog(new java.util.ArrayList<>());
        kept.reduce(0, 24, 0, keptCalls);
        assertThat(keptCalls.calls())
                .containsExactly(
                        "addRepeated 0 0 2 x3 by 2",
                        "addRepeated 2 6 2 x3 by 2",
                        "addRepeated 4 12 2 x3 by 2",
                        "addRepeated 6 18 2 x3 by 2");
    }

    @Test
    void theDefaultRepeatedAddIsTheAddsInRunOrder() {
        CallLog calls = new CallLog(new java.util.ArrayList<>());
        ReduceSink adds = new ReduceSink() {
            @Override
            public void add(long sourceOffset, long gradientOffset, long length) {
                calls.add(sourceOffset, gradientOffset, length);
            }

            @Override
            public void sum(long sourceOffset, long gradientOffset, long length) {
                calls.sum(sourceOffset, gradientOffset, length);
            }
        };
        adds.addRepeated(3, 10, 4, 3, 7);
        assertThat(calls.calls()).containsExactly("add 3 10 4", "add 3 17 4", "add 3 24 4");
    }
}
