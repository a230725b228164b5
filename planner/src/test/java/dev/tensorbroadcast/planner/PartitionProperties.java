package dev.tensorbroadcast.planner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/** Partition plans of random outputs: rows and partitions as PartitionPlan's javadoc defines them. */
class PartitionProperties {
    /** How the plan is sized: {@code exactCount > 0} asks for that many partitions, else {@code partitionBytes}. */
    record Sizing(Shape output, DType dtype, long partitionBytes, long exactCount, long maxRowBytes) {
        PartitionPlan plan() {
            PartitionPlan.Builder builder = PartitionPlan.builder(output, dtype);
            if (exactCount > 0) {
                builder.partitions(exactCount);
            } else {
                builder.partitionBytes(partitionBytes);
            }
            if (maxRowBytes > 0) {
                builder.maxRowBytes(maxRowBytes);
            }
            return builder.build();
        }

        long effectiveMaxRowBytes() {
            long maxRow = maxRowBytes > 0 ? maxRowBytes : PartitionPlan.DEFAULT_MAX_ROW_BYTES;
            return exactCount > 0 ? maxRow : Math.min(maxRow, partitionBytes);
        }
    }

    @Provide
    Arbitrary<Sizing> sizings() {
        Arbitrary<Shape> outputs = Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(1, Arbitraries.just(0L)),
                        net.jqwik.api.Tuple.of(2, Arbitraries.just(1L)),
                        net.jqwik.api.Tuple.of(12, Arbitraries.longs().between(2, 40)))
                .list()
                .ofMaxSize(5)
                .map(dims -> Shape.of(CopyProgramProperties.unboxed(dims)));
        Arbitrary<Long> partitionBytes = Arbitraries.oneOf(
                Arbitraries.longs().between(1, 1_000), Arbitraries.longs().between(1, 1_000_000));
        Arbitrary<Long> exactCount =
                Arbitraries.oneOf(Arbitraries.just(0L), Arbitraries.longs().between(1, 50));
        Arbitrary<Long> maxRowBytes = Arbitraries.oneOf(
                Arbitraries.just(0L),
                Arbitraries.longs().between(1, 100),
                Arbitraries.longs().between(1, 10_000_000));
        return Combinators.combine(outputs, Arbitraries.of(DType.class), partitionBytes, exactCount, maxRowBytes)
                .as(Sizing::new);
    }

    @Property(tries = 1000)
    void rowsAndPartitionsFollowTheDocumentedRules(@ForAll("sizings") Sizing sizing, @ForAll Random random) {
        PartitionPlan plan = sizing.plan();
        Shape output = sizing.output();
        long bits = sizing.dtype().sizingBits();

        assertThat(plan.rowDims()).as("row dims").isEqualTo(expectedRowDims(sizing));
        assertThat(plan.rowShape()).isEqualTo(output.slice(plan.rowDims(), output.rank()));
        assertThat(plan.rows()).isEqualTo(output.product(0, plan.rowDims()));
        assertThat(plan.rowElements()).isEqualTo(plan.rowShape().elements());
        assertThat(plan.rows() * plan.rowElements()).isEqualTo(output.elements());
        assertThat(plan.elements()).isEqualTo(output.elements());
        assertThat(plan.bytes()).isEqualTo(bytes(output.elements(), bits));
        assertThat(plan.rowBytes()).isEqualTo(bytes(plan.rowElements(), bits));

        long wanted = sizing.exactCount() > 0
                ? sizing.exactCount()
                : (plan.bytes() + sizing.partitionBytes() - 1) / sizing.partitionBytes();
        assertThat(plan.partitionCount())
                .as("partition count")
                .isEqualTo(Math.max(1, Math.min(wanted, plan.rows())))
                .isLessThanOrEqualTo(Math.max(plan.rows(), 1));
        assertThat(plan.maxPartitionRows() - plan.minPartitionRows()).isBetween(0L, 1L);

        checkPartitionsTileTheRows(plan, random);

        Statistics.label("row dims").collect(plan.rowDims());
        Statistics.label("several partitions").collect(plan.partitionCount() > 1);
        Statistics.label("several partitions")
                .coverage(coverage -> coverage.check(true).percentage(p -> p >= 20));
    }

    /**
     * The rule in PartitionPlan's javadoc: the first dim indexes the rows; the next leading dim joins while a row
     * exceeds the maximum row size (at most the partition size when sizing by bytes), or while an exact partition
     * count needs more rows and joining can still give more. A scalar is one row of row dims 0.
     */
    static int expectedRowDims(Sizing sizing) {
        Shape output = sizing.output();
        if (output.rank() == 0) {
            return 0;
        }
        long bits = sizing.dtype().sizingBits();
        for (int k = 1; k < output.rank(); k++) {
            boolean rowFits = bytes(output.product(k, output.rank()), bits) <= sizing.effectiveMaxRowBytes();
            long rows = output.product(0, k);
            boolean enoughRows = sizing.exactCount() == 0 || rows >= sizing.exactCount() || rows >= output.elements();
            if (rowFits && enoughRows) {
                return k;
            }
        }
        return output.rank();
    }

    static long bytes(long elements, long bits) {
        return (elements * bits + 7) / 8;
    }

    /** Contiguous, in order, balanced, covering {@code [0, rows)}; every row found in its partition. */
    static void checkPartitionsTileTheRows(PartitionPlan plan, Random random) {
        long count = plan.partitionCount();
        TreeSet<Long> indexes = new TreeSet<>();
        if (count <= 50_000) {
            for (long i = 0; i < count; i++) {
                indexes.add(i);
            }
        } else {
            for (long i = 0; i < 1000; i++) {
                indexes.add(i);
                indexes.add(count - 1 - i);
                long middle = random.nextLong(count - 1);
                indexes.add(middle);
                indexes.add(middle + 1);
            }
        }
        for (long index : indexes) {
            Partition partition = plan.partition(index);
            assertThat(partition.index()).isEqualTo(index);
            assertThat(partition.rowCount()).isBetween(plan.minPartitionRows(), plan.maxPartitionRows());
            assertThat(partition.rowElements()).isEqualTo(plan.rowElements());
            assertThat(partition.firstElement()).isEqualTo(partition.firstRow() * plan.rowElements());
            assertThat(partition.endElement()).isEqualTo(partition.endRow() * plan.rowElements());
            if (index == 0) {
                assertThat(partition.firstRow()).isZero();
            }
            if (index == count - 1) {
                assertThat(partition.endRow()).isEqualTo(plan.rows());
            }
            if (index + 1 < count && indexes.contains(index + 1)) {
                assertThat(plan.partition(index + 1).firstRow()).isEqualTo(partition.endRow());
            }
            if (partition.rowCount() > 0) {
                assertThat(plan.partitionOfRow(partition.firstRow())).isEqualTo(partition);
                assertThat(plan.partitionOfRow(partition.endRow() - 1)).isEqualTo(partition);
                long inside = partition.firstRow() + random.nextLong(partition.rowCount());
                assertThat(plan.partitionOfRow(inside)).isEqualTo(partition);
            } else {
                // only the single partition of an output without rows is empty
                assertThat(plan.rows()).isZero();
                assertThat(count).isOne();
            }
        }
        if (plan.rows() <= 20_000) {
            for (long row = 0; row < plan.rows(); row++) {
                Partition partition = plan.partitionOfRow(row);
                assertThat(row).isGreaterThanOrEqualTo(partition.firstRow()).isLessThan(partition.endRow());
            }
        }
    }
}
