package dev.tensorbroadcast.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Partitions cut at given rows (a source's row groups): the same rows and row shape, other boundaries. */
class PartitionCutsTest {
    private final PartitionPlan uniform = PartitionPlan.builder(Shape.of(1000, 8, 64), DType.FLOAT32)
            .partitions(4)
            .build();

    @Test
    void partitionsStartWhereTheyWereCut() {
        PartitionPlan cut = uniform.cutAt(new long[] {0, 100, 700});

        assertThat(cut.partitionCount()).isEqualTo(3);
        assertThat(cut.rowShape()).isEqualTo(uniform.rowShape());
        assertThat(cut.partition(0)).isEqualTo(new Partition(0, 0, 100, 512));
        assertThat(cut.partition(1)).isEqualTo(new Partition(1, 100, 600, 512));
        assertThat(cut.partition(2)).isEqualTo(new Partition(2, 700, 300, 512));
        assertThat(cut.minPartitionRows()).isEqualTo(100);
        assertThat(cut.maxPartitionRows()).isEqualTo(600);
        assertThat(cut.partitionOfRow(0).index()).isZero();
        assertThat(cut.partitionOfRow(99).index()).isZero();
        assertThat(cut.partitionOfRow(100).index()).isEqualTo(1);
        assertThat(cut.partitionOfRow(699).index()).isEqualTo(1);
        assertThat(cut.partitionOfRow(999).index()).isEqualTo(2);
    }

    @Test
    void cutsMustStartAtZeroAndIncreaseInsideTheRows() {
        assertThatThrownBy(() -> uniform.cutAt(new long[] {10, 20})).hasMessageStartingWith("Cannot cut 1000 rows");
        assertThatThrownBy(() -> uniform.cutAt(new long[] {0, 20, 20})).hasMessageStartingWith("Cannot cut 1000 rows");
        assertThatThrownBy(() -> uniform.cutAt(new long[] {0, 1000})).hasMessageStartingWith("Cannot cut 1000 rows");
        assertThatThrownBy(() -> uniform.cutAt(new long[0])).hasMessageStartingWith("Cannot cut 1000 rows");
    }
}
