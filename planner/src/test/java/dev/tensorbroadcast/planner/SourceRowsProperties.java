package dev.tensorbroadcast.planner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/** {@link BroadcastPlan#sourceRows} against brute force: the rows every output element of a partition reads. */
class SourceRowsProperties {
    @Provide
    Arbitrary<CopyProgramProperties.Case> broadcasts() {
        return new CopyProgramProperties().broadcasts();
    }

    @Provide
    Arbitrary<Long> partitionCounts() {
        return Arbitraries.longs().between(1, 9);
    }

    @Property(tries = 1000)
    void eachPartitionReadsExactlyTheStatedRows(
            @ForAll("broadcasts") CopyProgramProperties.Case broadcast,
            @ForAll("partitionCounts") long partitionCount) {
        BroadcastPlan plan = plan(broadcast);
        PartitionPlan partitions =
                PartitionPlan.builderFor(plan).partitions(partitionCount).build();
        Shape input = broadcast.input();
        long rowElements = input.rank() == 0 ? 1 : input.product(1, input.rank());
        boolean sliced = false;
        for (long p = 0; p < partitions.partitionCount(); p++) {
            Partition partition = partitions.partition(p);
            SourceRows stated = plan.sourceRows(0, partition);
            long[] sources = broadcast.reference(partition.firstElement(), partition.endElement());
            if (sources.length == 0) {
                assertThat(stated).as("partition %s", partition).isEqualTo(SourceRows.none());
                continue;
            }
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            for (long source : sources) {
                long row = source / rowElements;
                min = Math.min(min, row);
                max = Math.max(max, row);
            }
            assertThat(stated).as("%s, partition %s", broadcast, partition).isEqualTo(new SourceRows(min, max + 1));
            assertThat(stated.end()).isLessThanOrEqualTo(plan.sourceRowCount(0));
            sliced |= stated.count() < plan.sourceRowCount(0);
        }
        Statistics.label("a partition reads a slice").collect(sliced);
    }

    static BroadcastPlan plan(CopyProgramProperties.Case broadcast) {
        BroadcastRequest request = BroadcastRequest.builder(Dialect.NUMPY)
                .input(broadcast.input())
                .target(TargetShape.of(broadcast.output()))
                .build();
        return BroadcastPlan.of(request, broadcast.output(), List.of(broadcast.mapping()));
    }
}
