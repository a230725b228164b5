package dev.tensorbroadcast.planner;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The reverse program against the element-by-element meaning of a reduce, for any valid broadcast. */
class ReduceProperties {
    @Provide
    Arbitrary<CopyProgramProperties.Case> broadcasts() {
        return new CopyProgramProperties().broadcasts();
    }

    private static double[] reference(
            CopyProgram program, long inputElements, double[] gradient, long start, long end) {
        double[] sum = new double[Math.toIntExact(inputElements)];
        for (long c = start; c < end; c++) {
            sum[Math.toIntExact(program.sourceIndex(c))] += gradient[Math.toIntExact(c)];
        }
        return sum;
    }

    @Property(tries = 300)
    void anyRangeAddsEachGradientElementIntoItsSource(
            @ForAll("broadcasts") CopyProgramProperties.Case broadcast, @ForAll long seed) {
        CopyProgram program = broadcast.program();
        long elements = program.elements();
        java.util.Random random = new java.util.Random(seed);
        long start = elements == 0 ? 0 : Math.floorMod(random.nextLong(), elements + 1);
        long end = start + (elements == start ? 0 : Math.floorMod(random.nextLong(), elements - start + 1));
        double[] gradient = ReducePlanTest.iota(elements);
        double[] sum = new double[Math.toIntExact(broadcast.input().elements())];
        // the range's gradient is held from `start` on, as a task holds its slice
        program.reduce(start, end, 0, new ReducePlanTest.ArraySink(sum, gradient, Math.toIntExact(start)));
        assertThat(sum).containsExactly(reference(program, broadcast.input().elements(), gradient, start, end));
    }

    @Property(tries = 200)
    void reduceOfExpandIsTheInputTimesItsCopies(@ForAll("broadcasts") CopyProgramProperties.Case broadcast) {
        CopyProgram program = broadcast.program();
        long inputElements = broadcast.input().elements();
        double[] input = ReducePlanTest.iota(inputElements);
        double[] expanded = new double[Math.toIntExact(program.elements())];
        for (int c = 0; c < expanded.length; c++) {
            expanded[c] = input[Math.toIntExact(program.sourceIndex(c))];
        }
        double[] sum = new double[Math.toIntExact(inputElements)];
        program.reduce(0, expanded.length, 0, new ReducePlanTest.ArraySink(sum, expanded, 0));
        long copies = inputElements == 0 ? 0 : program.elements() / inputElements;
        for (int i = 0; i < sum.length; i++) {
            assertThat(sum[i]).isEqualTo(input[i] * copies);
        }
    }

    @Property(tries = 200)
    void splittingTheGradientIntoPiecesGivesTheSameSum(
            @ForAll("broadcasts") CopyProgramProperties.Case broadcast, @ForAll long seed) {
        CopyProgram program = broadcast.program();
        long elements = program.elements();
        double[] gradient = ReducePlanTest.iota(elements);
        double[] whole = new double[Math.toIntExact(broadcast.input().elements())];
        program.reduce(0, elements, 0, new ReducePlanTest.ArraySink(whole, gradient, 0));
        double[] pieces = new double[whole.length];
        java.util.Random random = new java.util.Random(seed);
        long at = 0;
        while (at < elements) {
            long end = Math.min(elements, at + 1 + random.nextInt(7));
            program.reduce(at, end, 0, new ReducePlanTest.ArraySink(pieces, gradient, Math.toIntExact(at)));
            at = end;
        }
        assertThat(pieces).containsExactly(whole);
    }
}
