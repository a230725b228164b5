package dev.tensorbroadcast.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/** The numpy dialect against numpy's definition of {@code broadcast_to} and {@code broadcast_shapes}. */
class NumpyProperties {
    /** A target and an input that numpy accepts: the input right-aligned, each dim the target's or 1. */
    record Accepted(Shape input, Shape target) {}

    @Provide
    Arbitrary<Accepted> accepted() {
        return CopyProgramProperties.outputDims()
                .flatMap(dims -> Combinators.combine(
                                Arbitraries.integers().between(0, dims.size()),
                                Arbitraries.of(true, false).list().ofSize(dims.size()))
                        .as((rank, full) -> {
                            long[] input = new long[rank];
                            int offset = dims.size() - rank;
                            for (int i = 0; i < rank; i++) {
                                input[i] = full.get(offset + i) ? dims.get(offset + i) : 1;
                            }
                            return new Accepted(Shape.of(input), Shape.of(CopyProgramProperties.unboxed(dims)));
                        }));
    }

    @Property(tries = 500)
    void acceptedBroadcastsLandRightAlignedAndCopyAsTheReference(@ForAll("accepted") Accepted request) {
        BroadcastPlan plan = broadcastTo(request.input(), request.target());
        Shape output = plan.output();
        assertThat(output).isEqualTo(request.target());
        int[] axes = new int[request.input().rank()];
        for (int i = 0; i < axes.length; i++) {
            axes[i] = output.rank() - axes.length + i;
        }
        assertThat(plan.input(0).outputAxes()).containsExactly(axes);
        CopyProgram program = plan.copyProgram(0);
        long elements = output.elements();
        long[] reference = BroadcastReference.sourceIndexes(output, request.input(), axes, 0, elements);
        for (int i = 0; i < reference.length; i++) {
            assertThat(program.sourceIndex(i)).isEqualTo(reference[i]);
        }
        CheckingSink sink = new CheckingSink(request.input().elements(), elements);
        program.run(0, elements, sink);
        assertThat(sink.target()).containsExactly(reference);
    }

    /** Small shapes, so that random pairs are often but not always compatible. */
    @Provide
    Arbitrary<Shape> smallShapes() {
        return Arbitraries.longs()
                .between(0, 3)
                .list()
                .ofMaxSize(4)
                .map(dims -> Shape.of(CopyProgramProperties.unboxed(dims)));
    }

    @Property(tries = 2000)
    void broadcastToAcceptsExactlyWhatNumpyDefines(
            @ForAll("smallShapes") Shape input, @ForAll("smallShapes") Shape target) {
        boolean numpyAccepts = broadcastsTo(input, target);
        Statistics.label("accepted").collect(numpyAccepts);
        Statistics.label("accepted").coverage(coverage -> {
            coverage.check(true).percentage(p -> p >= 10);
            coverage.check(false).percentage(p -> p >= 10);
        });
        if (numpyAccepts) {
            assertThat(broadcastTo(input, target).output()).isEqualTo(target);
        } else {
            assertThatThrownBy(() -> broadcastTo(input, target))
                    .isInstanceOf(IncompatibleShapesException.class)
                    .hasMessageStartingWith("Cannot broadcast " + input + " to " + target + " [numpy]: ");
        }
    }

    @Property(tries = 2000)
    void broadcastShapesAcceptsExactlyWhatNumpyDefines(
            @ForAll("shapeLists") List<Shape> inputs, @ForAll Random random) {
        Optional<Shape> expected = numpyBroadcastShapes(inputs);
        Statistics.label("accepted").collect(expected.isPresent());
        Statistics.label("accepted").coverage(coverage -> {
            coverage.check(true).percentage(p -> p >= 10);
            coverage.check(false).percentage(p -> p >= 10);
        });
        List<Shape> shuffled = new ArrayList<>(inputs);
        Collections.shuffle(shuffled, random);
        for (List<Shape> order : List.of(inputs, shuffled)) {
            if (expected.isPresent()) {
                BroadcastPlan plan = broadcastShapes(order);
                assertThat(plan.output()).as("inputs %s", order).isEqualTo(expected.get());
                for (int i = 0; i < order.size(); i++) {
                    assertThat(plan.input(i))
                            .isEqualTo(InputBroadcast.rightAligned(
                                    order.get(i), expected.get().rank()));
                }
            } else {
                assertThatThrownBy(() -> broadcastShapes(order))
                        .as("inputs %s", order)
                        .isInstanceOf(IncompatibleShapesException.class)
                        .hasMessageStartingWith("Cannot broadcast ")
                        .hasMessageContaining(" together [numpy]: ");
            }
        }
    }

    @Provide
    Arbitrary<List<Shape>> shapeLists() {
        return smallShapes().list().ofMinSize(1).ofMaxSize(4);
    }

    /** numpy's {@code broadcast_to} rule, straight from its documentation. */
    static boolean broadcastsTo(Shape input, Shape target) {
        if (target.rank() < input.rank()) {
            return false;
        }
        int offset = target.rank() - input.rank();
        for (int i = 0; i < input.rank(); i++) {
            if (input.dim(i) != 1 && input.dim(i) != target.dim(offset + i)) {
                return false;
            }
        }
        return true;
    }

    /** numpy's {@code broadcast_shapes}: per right-aligned axis, all dims other than 1 are equal; else 1. */
    static Optional<Shape> numpyBroadcastShapes(List<Shape> inputs) {
        int rank = inputs.stream().mapToInt(Shape::rank).max().orElse(0);
        long[] result = new long[rank];
        for (int axis = 0; axis < rank; axis++) {
            Long common = null;
            for (Shape input : inputs) {
                int inputAxis = axis - (rank - input.rank());
                if (inputAxis < 0 || input.dim(inputAxis) == 1) {
                    continue;
                }
                if (common != null && common != input.dim(inputAxis)) {
                    return Optional.empty();
                }
                common = input.dim(inputAxis);
            }
            result[axis] = common == null ? 1 : common;
        }
        return Optional.of(Shape.of(result));
    }

    private static BroadcastPlan broadcastTo(Shape input, Shape target) {
        return BroadcastRequest.builder(Dialect.NUMPY)
                .input(input)
                .target(TargetShape.of(target))
                .build()
                .plan();
    }

    private static BroadcastPlan broadcastShapes(List<Shape> inputs) {
        BroadcastRequest.Builder builder = BroadcastRequest.builder(Dialect.NUMPY);
        inputs.forEach(builder::input);
        return builder.build().plan();
    }
}
