package dev.tensorbroadcast.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TargetShapeTest {
    @Test
    void parsesTheSameFormsAsShapes() {
        for (String text : new String[] {"[2,3]", "2,3", "(2,3)", "2x3", " [ 2 , 3 ] "}) {
            assertThat(TargetShape.parse(text)).as(text).isEqualTo(TargetShape.of(2, 3));
        }
        assertThat(TargetShape.parse("(5,)")).isEqualTo(TargetShape.of(5));
        for (String text : new String[] {"[]", "()", ""}) {
            assertThat(TargetShape.parse(text).rank()).as("'%s'", text).isZero();
        }
    }

    @Test
    void keepsNegativeValuesForTheDialectToJudge() {
        TargetShape target = TargetShape.parse("[-1,3,-2]");
        assertThat(target.dims()).containsExactly(-1, 3, -2);
        assertThat(target.firstNegativeAxis()).isZero();
        assertThat(TargetShape.of(4, -1).firstNegativeAxis()).isEqualTo(1);
        assertThat(TargetShape.of(4, 0).firstNegativeAxis()).isEqualTo(-1);
        assertThat(target).hasToString("(-1,3,-2)");
        assertThat(target.toList()).isEqualTo("[-1,3,-2]");
        assertThatThrownBy(target::toShape)
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot create shape (-1,3,-2): dim 0 is -1; a tensor's dimensions are 0 or more");
    }

    @Test
    void rejectsMalformedText() {
        assertThatThrownBy(() -> TargetShape.parse("[2,,3]"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot parse target shape '[2,,3]': empty dimension at position 1; write it as [2,3],"
                        + " 2,3 or [] for a scalar");
        assertThatThrownBy(() -> TargetShape.parse("[a]"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot parse target shape '[a]': 'a' is not an integer; write it as [2,3], 2,3 or []"
                        + " for a scalar");
        assertThatThrownBy(() -> TargetShape.parse("x".repeat(10_000)))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage(
                        "Cannot parse target shape: the text is 10000 characters long; at most 4096 are" + " accepted");
        assertThatThrownBy(() -> TargetShape.parse("[" + "-1,".repeat(64) + "-1]"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageEndingWith("': it has 65 dimensions; at most 64 are supported");
        assertThatThrownBy(() -> TargetShape.of(new long[65]))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot create target shape of rank 65: at most 64 dimensions are supported");
    }

    @Test
    void convertsToAndFromShapes() {
        assertThat(TargetShape.of(Shape.of(4, 0)).toShape()).isEqualTo(Shape.of(4, 0));
        assertThat(TargetShape.of(Shape.scalar()).toShape()).isSameAs(Shape.scalar());
        assertThat(TargetShape.of(5)).hasToString("(5,)");
        assertThat(TargetShape.of()).hasToString("()");
        assertThat(TargetShape.of()).extracting(TargetShape::toList).isEqualTo("[]");
    }

    @Test
    void valueSemantics() {
        long[] dims = {2, -1};
        TargetShape target = TargetShape.of(dims);
        dims[0] = 7;
        assertThat(target.dim(0)).isEqualTo(2);
        target.dims()[1] = 9;
        assertThat(target.dim(1)).isEqualTo(-1);
        assertThat(target)
                .isEqualTo(TargetShape.parse("2,-1"))
                .hasSameHashCodeAs(TargetShape.of(2, -1))
                .isNotEqualTo(TargetShape.of(-1, 2));
    }
}
