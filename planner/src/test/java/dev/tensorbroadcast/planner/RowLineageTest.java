package dev.tensorbroadcast.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which source row each output row comes from: what lets a row's other columns travel with it. */
class RowLineageTest {
    @Test
    void aKeptBatchDimMapsEachOutputRowToTheSameSourceRow() {
        BroadcastPlan plan = Requests.request(Dialect.PYTORCH, "1000,1,64")
                .target(TargetShape.parse("-1,8,64"))
                .build()
                .plan();
        PartitionPlan partitions = PartitionPlan.builderFor(plan).partitions(4).build();

        RowLineage lineage = RowLineage.of(plan, 0, partitions).orElseThrow();

        assertThat(lineage.sourceRow(0)).isZero();
        assertThat(lineage.sourceRow(737)).isEqualTo(737);
        assertThat(lineage.sourceRows(250, 500)).isEqualTo(new SourceRows(250, 500));
    }

    @Test
    void aGrownSingleRowFeedsEveryOutputRow() {
        BroadcastPlan plan = Requests.request(Dialect.NUMPY, "1,64")
                .target(TargetShape.parse("100,64"))
                .build()
                .plan();
        PartitionPlan partitions = PartitionPlan.builderFor(plan).build();

        RowLineage lineage = RowLineage.of(plan, 0, partitions).orElseThrow();

        assertThat(lineage.sourceRow(99)).isZero();
        assertThat(lineage.sourceRows(10, 90)).isEqualTo(new SourceRows(0, 1));
    }

    @Test
    void rowsSpanningTwoDimsTakeTheirSourceRowFromTheFirst() {
        // an exact partition count of 12 needs rows of [4]: output row r is (r / 3, r % 3)
        BroadcastPlan plan = Requests.request(Dialect.NUMPY, "4,1,4")
                .target(TargetShape.parse("4,3,4"))
                .build()
                .plan();
        PartitionPlan partitions = PartitionPlan.builderFor(plan).partitions(12).build();

        RowLineage lineage = RowLineage.of(plan, 0, partitions).orElseThrow();

        assertThat(partitions.rowDims()).isEqualTo(2);
        assertThat(lineage.outputRowsPerStep()).isEqualTo(3);
        assertThat(lineage.sourceRow(2)).isZero();
        assertThat(lineage.sourceRow(3)).isEqualTo(1);
        assertThat(lineage.sourceRow(11)).isEqualTo(3);
        assertThat(lineage.sourceRows(2, 7)).isEqualTo(new SourceRows(0, 3));
    }

    @Test
    void prependedDimsAndScalarsHaveNoLineage() {
        BroadcastPlan prepended = Requests.request(Dialect.NUMPY, "4,64")
                .target(TargetShape.parse("100,4,64"))
                .build()
                .plan();
        BroadcastPlan scalar = Requests.request(Dialect.NUMPY, "")
                .target(TargetShape.parse("100,4"))
                .build()
                .plan();

        assertThat(RowLineage.of(
                        prepended, 0, PartitionPlan.builderFor(prepended).build()))
                .isEqualTo(Optional.empty());
        assertThat(RowLineage.of(scalar, 0, PartitionPlan.builderFor(scalar).build()))
                .isEqualTo(Optional.empty());
    }

    @Test
    void aZeroRowInputHasALineageWithNoRowsToTrace() {
        // the output keeps the input's 0 rows: the regression refused to build this lineage at all
        BroadcastPlan plan = Requests.request(Dialect.NUMPY, "0,3").build().plan();
        PartitionPlan partitions = PartitionPlan.builderFor(plan).build();

        RowLineage lineage = RowLineage.of(plan, 0, partitions).orElseThrow();

        assertThat(lineage.sourceRows()).isZero();
        assertThat(partitions.rows()).isZero();
        assertThat(lineage.sourceRows(0, partitions.rows())).isEqualTo(SourceRows.none());
        assertThatThrownBy(() -> lineage.sourceRow(0))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("zero-size output");
    }

    @Test
    void aZeroAfterTheFirstDimLeavesRowsOfNoElements() {
        // the 0 stays in the row shape (rows are never joined across it), so each source row still has its output row
        BroadcastPlan plan = Requests.request(Dialect.NUMPY, "4,0,3").build().plan();
        PartitionPlan partitions = PartitionPlan.builderFor(plan).partitions(8).build();

        RowLineage lineage = RowLineage.of(plan, 0, partitions).orElseThrow();

        assertThat(partitions.rowDims()).isEqualTo(1);
        assertThat(lineage).isEqualTo(new RowLineage(4, 1));
        assertThat(lineage.sourceRows(0, partitions.rows())).isEqualTo(new SourceRows(0, 4));
        assertThat(new RowLineage(4, 0).sourceRows(0, 0)).isEqualTo(SourceRows.none());
    }

    @Test
    void negativeCountsAreRefused() {
        assertThatThrownBy(() -> new RowLineage(-1, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot trace rows: -1 source rows, 1 output rows per step");
    }
}
