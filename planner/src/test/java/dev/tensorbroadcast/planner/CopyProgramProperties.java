package dev.tensorbroadcast.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * Copy programs against the brute-force meaning of a broadcast, for broadcasts built straight from
 * {@link InputBroadcast} (any increasing axis mapping, not only the ones a dialect produces).
 */
class CopyProgramProperties {
    /** A valid broadcast: input axis {@code i} lands on output axis {@code axes[i]}, with the same dim or 1. */
    record Case(Shape output, Shape input, int[] axes) {
        InputBroadcast mapping() {
            return InputBroadcast.mapped(input, axes);
        }

        CopyProgram program() {
            return CopyProgram.of(output, mapping().sourceStrides(output));
        }

        long[] reference(long start, long end) {
            return BroadcastReference.sourceIndexes(output, input, axes, start, end);
        }

        @Override
        public String toString() {
            return input + " -> " + output + " at axes " + Arrays.toString(axes);
        }
    }

    static final long MAX_ELEMENTS = 5000;

    @Provide
    Arbitrary<Case> broadcasts() {
        return outputDims()
                .flatMap(dims -> Combinators.combine(
                                Arbitraries.of(true, false).list().ofSize(dims.size()),
                                Arbitraries.of(true, false).list().ofSize(dims.size()))
                        .as((chosen, full) -> mappedCase(dims, chosen, full)));
    }

    /** Ranks 0 to 6, dims 0 to 5 with plenty of 1s, at most {@link #MAX_ELEMENTS} elements. */
    static Arbitrary<List<Long>> outputDims() {
        Arbitrary<Long> dim = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(0L)),
                Tuple.of(6, Arbitraries.just(1L)),
                Tuple.of(18, Arbitraries.longs().between(2, 5)));
        return dim.list().ofMinSize(0).ofMaxSize(6).filter(dims -> product(dims) <= MAX_ELEMENTS);
    }

    private static Case mappedCase(List<Long> dims, List<Boolean> chosen, List<Boolean> full) {
        List<Integer> axes = new ArrayList<>();
        List<Long> inputDims = new ArrayList<>();
        for (int axis = 0; axis < dims.size(); axis++) {
            if (chosen.get(axis)) {
                axes.add(axis);
                inputDims.add(full.get(axis) ? dims.get(axis) : 1L);
            }
        }
        return new Case(
                Shape.of(unboxed(dims)),
                Shape.of(unboxed(inputDims)),
                axes.stream().mapToInt(Integer::intValue).toArray());
    }

    static long product(List<Long> dims) {
        long product = 1;
        for (long dim : dims) {
            product *= dim;
        }
        return product;
    }

    static long[] unboxed(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).toArray();
    }

    @Property(tries = 1000)
    void sourceIndexIsTheBroadcastMeaning(@ForAll("broadcasts") Case broadcast) {
        CopyProgram program = broadcast.program();
        long elements = broadcast.output().elements();
        assertThat(program.elements()).isEqualTo(elements);
        long[] reference = broadcast.reference(0, elements);
        for (int i = 0; i < reference.length; i++) {
            assertThat(program.sourceIndex(i)).as("output element %d", i).isEqualTo(reference[i]);
        }
        Statistics.label("empty output").collect(elements == 0);
    }

    @Property(tries = 1000)
    void runFillsAnyRangeExactlyAsTheReference(@ForAll("broadcasts") Case broadcast, @ForAll Random random) {
        CopyProgram program = broadcast.program();
        long elements = program.elements();
        for (long[] range : ranges(broadcast.output(), elements, random)) {
            checkRun(broadcast, program, range[0], range[1]);
        }
        Statistics.label("loop levels").collect(program.depth());
        // the generator must keep producing nests deep enough to split ranges at several levels
        Statistics.label("three or more levels").collect(program.depth() >= 3);
        Statistics.label("three or more levels")
                .coverage(coverage -> coverage.check(true).percentage(p -> p >= 5));
        Statistics.label("innermost repeats").collect(program.innermostRepeats());
    }

    @Property(tries = 300)
    void wholeRunNeedsAtMostTwoOperationsPerContiguousSourceRun(@ForAll("broadcasts") Case broadcast) {
        CopyProgram program = broadcast.program();
        long elements = program.elements();
        CheckingSink sink = checkRun(broadcast, program, 0, elements);
        assertThat(sink.operations()).isLessThanOrEqualTo(2 * contiguousRuns(broadcast.reference(0, elements)));
    }

    @Property(tries = 300)
    void anyRunNeedsAtMostTwoOperationsPerContiguousSourceRun(
            @ForAll("broadcasts") Case broadcast, @ForAll Random random) {
        CopyProgram program = broadcast.program();
        for (long[] range : ranges(broadcast.output(), program.elements(), random)) {
            CheckingSink sink = checkRun(broadcast, program, range[0], range[1]);
            assertThat(sink.operations())
                    .as("range [%d, %d)", range[0], range[1])
                    .isLessThanOrEqualTo(2 * contiguousRuns(broadcast.reference(range[0], range[1])));
        }
    }

    @Property(tries = 1000)
    void sameSourceIsOnlyEverSaidOfRangesThatReadTheSameElements(
            @ForAll("broadcasts") Case broadcast, @ForAll Random random) {
        CopyProgram program = broadcast.program();
        long elements = program.elements();
        int proven = 0;
        for (int k = 0; k < 40 && elements > 0; k++) {
            long length = 1 + random.nextLong(elements);
            long first = random.nextLong(elements - length + 1);
            // half the time a shift by a multiple of an output stride, where equal ranges are likeliest
            long[] strides = broadcast.output().strides();
            long second = strides.length > 0 && random.nextBoolean()
                    ? first + strides[random.nextInt(strides.length)] * random.nextInt(3)
                    : random.nextLong(elements - length + 1);
            if (second > elements - length) {
                continue;
            }
            boolean same = program.sameSource(first, second, length);
            boolean reallySame = Arrays.equals(
                    broadcast.reference(first, first + length), broadcast.reference(second, second + length));
            if (same) {
                proven++;
                assertThat(reallySame)
                        .as("%s: [%d, +%d) and [%d, +%d)", broadcast, first, length, second, length)
                        .isTrue();
            }
            Statistics.label("proven when equal").collect(reallySame && first != second ? same : null);
        }
        Statistics.label("some distinct ranges proven").collect(proven > 0);
    }

    @Example
    void sameSourceFindsEveryRepeatOfALeadingBroadcast() {
        CopyProgram program = rightAligned(Shape.of(1, 4), Shape.of(100, 4));
        // whole rows anywhere, and equal offsets inside rows, read the same elements
        assertThat(program.sameSource(0, 40, 36)).isTrue();
        assertThat(program.sameSource(6, 390, 10)).isTrue();
        assertThat(program.sameSource(0, 1, 4)).isFalse();
        assertThat(program.sameSource(7, 7, 393)).isTrue();
    }

    @Example
    void sameSourceInsideOneOuterIndexOfAMiddleBroadcast() {
        // [3,1,2] -> [3,5,2]: every row of 2 repeats 5 times inside its outer index, and only there
        CopyProgram program = rightAligned(Shape.of(3, 1, 2), Shape.of(3, 5, 2));
        assertThat(program.sameSource(0, 4, 6)).isTrue();
        assertThat(program.sameSource(10, 14, 4)).isTrue();
        assertThat(program.sameSource(0, 4, 8))
                .as("the second range runs into outer index 1")
                .isFalse();
        assertThat(program.sameSource(2, 12, 2))
                .as("outer indexes 0 and 1 read other elements")
                .isFalse();
        assertThat(program.sameSource(1, 3, 2))
                .as("both start inside a row, at the same offset")
                .isTrue();
        assertThat(program.sameSource(0, 0, 0)).isTrue();
        assertThatThrownBy(() -> program.sameSource(0, 25, 6))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("ranges of 6 at 0 and 25 outside [0, 30)");
    }

    @Example
    void sameSourceNeverProvesAnInnerBroadcastsRowsEqual() {
        CopyProgram program = rightAligned(Shape.of(8, 1), Shape.of(8, 16));
        assertThat(program.sameSource(0, 16, 16)).isFalse();
        assertThat(program.sameSource(0, 3, 5))
                .as("inside one row every element is the same one")
                .isTrue();
    }

    static CheckingSink checkRun(Case broadcast, CopyProgram program, long start, long end) {
        CheckingSink sink = new CheckingSink(broadcast.input().elements(), end - start);
        program.run(start, end, sink);
        assertThat(sink.target())
                .as("%s, range [%d, %d), program %s", broadcast, start, end, program)
                .containsExactly(broadcast.reference(start, end));
        return sink;
    }

    /** Maximal stretches where consecutive output elements read consecutive source elements. */
    static int contiguousRuns(long[] sources) {
        int runs = 0;
        for (int i = 0; i < sources.length; i++) {
            if (i == 0 || sources[i] != sources[i - 1] + 1) {
                runs++;
            }
        }
        return runs;
    }

    /**
     * Empty ranges, the whole output, single elements, ranges that start or end next to a block boundary of every
     * axis, and random ranges; every pair when the output is small.
     */
    static List<long[]> ranges(Shape output, long elements, Random random) {
        List<long[]> ranges = new ArrayList<>();
        if (elements <= 24) {
            for (long start = 0; start <= elements; start++) {
                for (long end = start; end <= elements; end++) {
                    ranges.add(new long[] {start, end});
                }
            }
            return ranges;
        }
        ranges.add(new long[] {0, 0});
        ranges.add(new long[] {elements, elements});
        ranges.add(new long[] {0, elements});
        TreeSet<Long> points = new TreeSet<>(List.of(0L, 1L, elements - 1, elements));
        for (long stride : output.strides()) {
            for (long multiple : new long[] {stride, 2 * stride, elements - stride}) {
                for (long point = multiple - 1; point <= multiple + 1; point++) {
                    if (point >= 0 && point <= elements) {
                        points.add(point);
                    }
                }
            }
        }
        List<Long> boundaries = new ArrayList<>(points);
        for (int k = 0; k < 12; k++) {
            long a = boundaries.get(random.nextInt(boundaries.size()));
            long b = boundaries.get(random.nextInt(boundaries.size()));
            ranges.add(new long[] {Math.min(a, b), Math.max(a, b)});
        }
        for (int k = 0; k < 6; k++) {
            long single = random.nextLong(elements);
            ranges.add(new long[] {single, single + 1});
            long a = random.nextLong(elements + 1);
            long b = random.nextLong(elements + 1);
            ranges.add(new long[] {Math.min(a, b), Math.max(a, b)});
        }
        return ranges;
    }

    @Example
    void leadingBroadcastIsOneCopyAndOneRepeat() {
        CopyProgram program = rightAligned(Shape.of(1, 1024), Shape.of(64, 1024));
        RecordingSink sink = new RecordingSink();
        program.run(0, program.elements(), sink);
        assertThat(sink.operations).containsExactly("copy(0, 0, 1024)", "repeat(0, 1024, 64)");
    }

    @Example
    void innerBroadcastIsACopyAndARepeatPerRow() {
        CopyProgram program = rightAligned(Shape.of(64, 1), Shape.of(64, 1024));
        RecordingSink sink = new RecordingSink();
        program.run(0, program.elements(), sink);
        assertThat(sink.operations).hasSize(128);
        assertThat(sink.operations.subList(0, 4))
                .containsExactly("copy(0, 0, 1)", "repeat(0, 1, 1024)", "copy(1, 1024, 1)", "repeat(1024, 1, 1024)");
        assertThat(sink.operations.get(127)).isEqualTo("repeat(64512, 1, 1024)");
    }

    @Example
    void middleBroadcastIsACopyAndARepeatPerOuterIndex() {
        CopyProgram program = rightAligned(Shape.of(64, 1, 16), Shape.of(64, 32, 16));
        RecordingSink sink = new RecordingSink();
        program.run(0, program.elements(), sink);
        assertThat(sink.operations).hasSize(128);
        assertThat(sink.operations.subList(0, 4))
                .containsExactly("copy(0, 0, 16)", "repeat(0, 16, 32)", "copy(16, 512, 16)", "repeat(512, 16, 32)");
    }

    @Example
    void partialRangeOffsetsAreRelativeToItsStart() {
        CopyProgram program = rightAligned(Shape.of(1, 4), Shape.of(5, 4));
        RecordingSink sink = new RecordingSink();
        program.run(3, 13, sink);
        // element 3 ends block 0; blocks 1 and 2 are whole; elements 12 starts block 3
        assertThat(sink.operations)
                .containsExactly("copy(3, 0, 1)", "copy(0, 1, 4)", "repeat(1, 4, 2)", "copy(0, 9, 1)");
    }

    private static CopyProgram rightAligned(Shape input, Shape output) {
        return CopyProgram.of(
                output, InputBroadcast.rightAligned(input, output.rank()).sourceStrides(output));
    }

    static final class RecordingSink implements CopySink {
        final List<String> operations = new ArrayList<>();

        @Override
        public void copy(long sourceOffset, long targetOffset, long length) {
            operations.add("copy(" + sourceOffset + ", " + targetOffset + ", " + length + ")");
        }

        @Override
        public void repeat(long targetOffset, long blockLength, long times) {
            operations.add("repeat(" + targetOffset + ", " + blockLength + ", " + times + ")");
        }
    }
}
