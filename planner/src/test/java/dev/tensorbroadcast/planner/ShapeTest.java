package dev.tensorbroadcast.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ShapeTest {
    @Test
    void parsesEveryAcceptedForm() {
        Shape twoByThree = Shape.of(2, 3);
        for (String text :
                new String[] {"[2,3]", "2,3", "(2,3)", "2x3", " [ 2 , 3 ] ", "\t(2, 3)\n", "2 x 3", "[2,3,]"}) {
            assertThat(Shape.parse(text)).as(text).isEqualTo(twoByThree);
        }
        assertThat(Shape.parse("(5,)")).isEqualTo(Shape.of(5));
        assertThat(Shape.parse("5")).isEqualTo(Shape.of(5));
        assertThat(Shape.parse("[0]")).isEqualTo(Shape.of(0));
        for (String text : new String[] {"[]", "()", "", "  ", "[ ]"}) {
            assertThat(Shape.parse(text)).as("'%s'", text).isEqualTo(Shape.scalar());
        }
        assertThat(Shape.parse("[9223372036854775807]").dim(0)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void rejectsMalformedText() {
        assertThatThrownBy(() -> Shape.parse("[2,,3]"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot parse shape '[2,,3]': empty dimension at position 1; write it as [2,3], 2,3 or []"
                        + " for a scalar");
        assertThatThrownBy(() -> Shape.parse("[,]"))
                .hasMessage("Cannot parse shape '[,]': empty dimension at position 0; write it as [2,3], 2,3 or []"
                        + " for a scalar");
        assertThatThrownBy(() -> Shape.parse("[a]"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot parse shape '[a]': 'a' is not an integer; write it as [2,3], 2,3 or [] for a"
                        + " scalar");
        assertThatThrownBy(() -> Shape.parse("2 3"))
                .hasMessage("Cannot parse shape '2 3': '2 3' is not an integer; write it as [2,3], 2,3 or [] for a"
                        + " scalar");
        assertThatThrownBy(() -> Shape.parse(null))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot parse shape: it is missing");
    }

    @Test
    void rejectsNegativeDims() {
        assertThatThrownBy(() -> Shape.parse("[2,-1]"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot create shape (2,-1): dim 1 is -1; a tensor's dimensions are 0 or more");
        assertThatThrownBy(() -> Shape.of(-3))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot create shape (-3,): dim 0 is -3; a tensor's dimensions are 0 or more");
    }

    @Test
    void rejectsMoreThan64Dims() {
        String sixtyFive = "[" + "1,".repeat(64) + "1]";
        assertThatThrownBy(() -> Shape.parse(sixtyFive))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot parse shape '[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,...':"
                        + " it has 65 dimensions; at most 64 are supported");
        assertThat(Shape.parse("[" + "1,".repeat(63) + "1]").rank()).isEqualTo(64);
        assertThatThrownBy(() -> Shape.of(new long[65]))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot create shape of rank 65: at most 64 dimensions are supported");
    }

    @Test
    void rejectsOverlongText() {
        String text = "1,".repeat(5000);
        assertThatThrownBy(() -> Shape.parse(text))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot parse shape: the text is 10000 characters long; at most 4096 are accepted");
    }

    @Test
    void abbreviatesLongTextInMessages() {
        String text = "[" + "1,".repeat(30) + "z".repeat(2000) + "]";
        assertThatThrownBy(() -> Shape.parse(text))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot parse shape '[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,...': '"
                        + "z".repeat(57) + "...' is not an integer; write it as [2,3], 2,3 or [] for a scalar");
        String empty = "[" + "1,".repeat(40) + ",1]";
        assertThatThrownBy(() -> Shape.parse(empty))
                .hasMessage("Cannot parse shape '[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,...': empty"
                        + " dimension at position 40; write it as [2,3], 2,3 or [] for a scalar");
    }

    @Test
    void rejectsNumbersBeyondLong() {
        assertThatThrownBy(() -> Shape.parse("[2,99999999999999999999]"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot parse shape '[2,99999999999999999999]': '99999999999999999999' is too large;"
                        + " a dimension is at most 9223372036854775807");
        assertThatThrownBy(() -> TargetShape.parse("[-99999999999999999999]"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot parse target shape '[-99999999999999999999]': '-99999999999999999999' is too"
                        + " small; a dimension is at least -9223372036854775808");
    }

    @Test
    void printsAsNumpyTuplesAndLists() {
        assertThat(Shape.of(2, 3)).hasToString("(2,3)");
        assertThat(Shape.of(5)).hasToString("(5,)");
        assertThat(Shape.scalar()).hasToString("()");
        assertThat(Shape.of(2, 3).toList()).isEqualTo("[2,3]");
        assertThat(Shape.of(5).toList()).isEqualTo("[5]");
        assertThat(Shape.scalar().toList()).isEqualTo("[]");
        assertThat(Shape.parse(Shape.of(7, 0, 1).toString())).isEqualTo(Shape.of(7, 0, 1));
        assertThat(Shape.parse(Shape.of(7, 0, 1).toList())).isEqualTo(Shape.of(7, 0, 1));
    }

    @Test
    void countsElementsWithoutWrapping() {
        assertThat(Shape.of(2, 3, 4).elements()).isEqualTo(24);
        assertThat(Shape.scalar().elements()).isEqualTo(1);
        assertThat(Shape.of(5, 0, 7).elements()).isZero();
        // a 0 anywhere makes the count 0, even when the other dims alone would overflow
        assertThat(Shape.of(1L << 40, 1L << 40, 0).elements()).isZero();
        assertThat(Shape.of(1L << 31, 1L << 31, 1).elements()).isEqualTo(1L << 62);
        assertThat(Shape.of(1, Long.MAX_VALUE).elements()).isEqualTo(Long.MAX_VALUE);
        assertThatThrownBy(() -> Shape.of(1L << 32, 1L << 31).elements())
                .isInstanceOf(TooLargeException.class)
                .hasMessage("Cannot count the elements of shape (4294967296,2147483648): the count exceeds"
                        + " 9223372036854775807");
        assertThat(Shape.of(2, 3, 4).product(1, 3)).isEqualTo(12);
        assertThat(Shape.of(2, 3, 4).product(1, 1)).isEqualTo(1);
    }

    @Test
    void rowMajorStrides() {
        assertThat(Shape.of(2, 3, 4).strides()).containsExactly(12, 4, 1);
        assertThat(Shape.of(5).strides()).containsExactly(1);
        assertThat(Shape.scalar().strides()).isEmpty();
        // a 0 dim counts as 1, so strides stay distinct and non-zero
        assertThat(Shape.of(2, 0, 4).strides()).containsExactly(4, 4, 1);
    }

    @Test
    void slicesAndAccessors() {
        Shape shape = Shape.of(2, 3, 4);
        assertThat(shape.slice(1, 3)).isEqualTo(Shape.of(3, 4));
        assertThat(shape.slice(3, 3)).isSameAs(Shape.scalar());
        assertThat(shape.rank()).isEqualTo(3);
        assertThat(shape.dim(2)).isEqualTo(4);
        assertThat(shape.isScalar()).isFalse();
        assertThat(Shape.of().isScalar()).isTrue();
        long[] dims = shape.dims();
        dims[0] = 99;
        assertThat(shape.dim(0)).isEqualTo(2);
        long[] source = {6, 7};
        Shape copied = Shape.of(source);
        source[0] = 1;
        assertThat(copied).isEqualTo(Shape.of(6, 7));
    }

    @Test
    void equalityByDims() {
        assertThat(Shape.of(2, 3)).isEqualTo(Shape.parse("2x3")).hasSameHashCodeAs(Shape.parse("[2,3]"));
        assertThat(Shape.of(2, 3))
                .isNotEqualTo(Shape.of(3, 2))
                .isNotEqualTo(Shape.of(2, 3, 1))
                .isNotEqualTo(TargetShape.of(2, 3));
        assertThat(Shape.of()).isEqualTo(Shape.scalar());
    }

    @Test
    void serializationKeepsTheDims() throws Exception {
        assertThat(PartitionPlanTest.roundTrip(Shape.of(4, 0, 9))).isEqualTo(Shape.of(4, 0, 9));
        assertThat(PartitionPlanTest.roundTrip(Shape.scalar())).isSameAs(Shape.scalar());
    }
}
