package dev.tensorbroadcast.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The source rows of partitions in the broadcasts a feature pipeline runs. */
class SourceRowsTest {
    @Test
    void keepingTheBatchDimReadsTheMatchingSlice() {
        // user embeddings [1000,1,64] -> [1000,8,64], the batch dim kept with -1
        BroadcastPlan plan = Requests.request(Dialect.PYTORCH, "1000,1,64")
                .target(TargetShape.parse("-1,8,64"))
                .build()
                .plan();
        PartitionPlan partitions = PartitionPlan.builderFor(plan).partitions(4).build();

        assertThat(plan.sourceRowCount(0)).isEqualTo(1000);
        assertThat(plan.sourceRows(0, partitions.partition(0))).isEqualTo(new SourceRows(0, 250));
        assertThat(plan.sourceRows(0, partitions.partition(3))).isEqualTo(new SourceRows(750, 1000));
    }

    @Test
    void rowsSplitInsideTheBatchDimReadOneSourceRow() {
        BroadcastPlan plan = Requests.request(Dialect.NUMPY, "3,1,4")
                .target(TargetShape.parse("3,5,4"))
                .build()
                .plan();

        // 15 output elements of 4 per source row of 5 repeats: elements 20..39 are all source row 1
        assertThat(plan.sourceRows(0, 20, 40)).isEqualTo(new SourceRows(1, 2));
        assertThat(plan.sourceRows(0, 19, 41)).isEqualTo(new SourceRows(0, 3));
        assertThat(plan.sourceRows(0, 7, 7)).isEqualTo(SourceRows.none());
    }

    @Test
    void broadcastingOverTheBatchDimReadsTheWholeSource() {
        BroadcastPlan newLeadingDim = Requests.request(Dialect.NUMPY, "1,64")
                .target(TargetShape.parse("100,8,64"))
                .build()
                .plan();
        BroadcastPlan repeatedOuter = Requests.request(Dialect.NUMPY, "4,64")
                .target(TargetShape.parse("100,4,64"))
                .build()
                .plan();

        assertThat(newLeadingDim.sourceRows(0, 0, 64)).isEqualTo(new SourceRows(0, 1));
        // output row 7 of [4,64] reads all four source rows
        assertThat(repeatedOuter.sourceRows(0, 7 * 256, 8 * 256)).isEqualTo(new SourceRows(0, 4));
        // a range inside one output row reads only the source rows it covers
        assertThat(repeatedOuter.sourceRows(0, 7 * 256 + 64, 7 * 256 + 128)).isEqualTo(new SourceRows(1, 2));
    }

    @Test
    void aScalarIsOneRow() {
        BroadcastPlan plan = Requests.request(Dialect.NUMPY, "[]")
                .target(TargetShape.parse("5,2"))
                .build()
                .plan();

        assertThat(plan.sourceRowCount(0)).isEqualTo(1);
        assertThat(plan.sourceRows(0, 0, 10)).isEqualTo(new SourceRows(0, 1));
    }

    @Test
    void rangesOutsideTheOutputAreRefused() {
        BroadcastPlan plan = Requests.request(Dialect.NUMPY, "2,1")
                .target(TargetShape.parse("2,3"))
                .build()
                .plan();

        assertThatThrownBy(() -> plan.sourceRows(0, 4, 7))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("range [4, 7) outside [0, 6)");
        assertThatThrownBy(() -> new SourceRows(3, 2)).hasMessage("source rows [3, 2) are not a range");
    }
}
