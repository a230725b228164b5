package dev.tensorbroadcast.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AxisListTest {
    @Test
    void parsesTheShapeNotation() {
        assertThat(AxisList.parse("axes", "[0,2]")).containsExactly(0L, 2L);
        assertThat(AxisList.parse("axes", "1, 3")).containsExactly(1L, 3L);
        assertThat(AxisList.parse("axes", "-1")).containsExactly(-1L);
        assertThat(AxisList.parse("axes", "[]")).isEmpty();
    }

    @Test
    void rejectsEmptyEntries() {
        assertThatThrownBy(() -> AxisList.parse("axes mapping", "0,,1"))
                .hasMessage("Cannot parse axes mapping '0,,1': '' is not an integer; write it as [0,2], 0,2 or [] for"
                        + " none");
    }
}
