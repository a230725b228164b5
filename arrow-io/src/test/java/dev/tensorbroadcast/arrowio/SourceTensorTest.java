package dev.tensorbroadcast.arrowio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.Shape;
import org.junit.jupiter.api.Test;

class SourceTensorTest {
    @Test
    void stringsAreSizedByTheirAverageLengthPlusAnOffset() {
        // 3 strings of 10 bytes together: 4 bytes on average (rounded up), plus 4 for the offset
        SourceTensor strings = SourceTensor.strings(Shape.of(3), new int[] {0, 1, 9, 10}, new byte[10], null);
        assertThat(strings.sizingBits()).isEqualTo(8 * (4 + 4));
        SourceTensor empty = SourceTensor.strings(Shape.of(0), new int[] {0}, new byte[0], null);
        assertThat(empty.sizingBits()).isEqualTo(32);
        SourceTensor longStrings = SourceTensor.strings(Shape.of(2), new int[] {0, 500, 1000}, new byte[1000], null);
        PartitionPlan plan = PartitionPlan.builder(Shape.of(1000, 2), DType.STRING)
                .elementBits(longStrings.sizingBits())
                .build();
        assertThat(plan.bytes()).isEqualTo(1000 * 2 * 504);
    }

    @Test
    void fixedWidthTypesAreSizedByTheirWidth() {
        assertThat(SourceTensor.fixedWidth(DType.BOOL, Shape.of(9), new byte[2], null)
                        .sizingBits())
                .isEqualTo(1);
        assertThat(SourceTensor.fixedWidth(DType.COMPLEX128, Shape.of(1), new byte[16], null)
                        .sizingBits())
                .isEqualTo(128);
    }
}
