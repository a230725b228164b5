package dev.tensorbroadcast.planner;

import static dev.tensorbroadcast.planner.Requests.expand;
import static dev.tensorbroadcast.planner.Requests.together;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PaddleRuleTest {
    @ParameterizedTest(name = "{0} to {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                // Paddle's test_expand_v2_op
                "[100]           | [100]             | [100]",
                "[]              | [10]              | [10]",
                "[]              | []                | []",
                "[120]           | [2,120]           | [2,120]",
                "[1,140]         | [12,140]          | [12,140]",
                "[2,10,5]        | [2,10,5]          | [2,10,5]",
                "[2,4,5,7]       | [-1,-1,-1,-1]     | [2,4,5,7]",
                "[5,2,1,4,5]     | [5,2,3,4,5]       | [5,2,3,4,5]",
                "[2,4,1,15]      | [2,-1,4,-1]       | [2,4,4,15]",
                "[]              | [1,2,3,4,5,6]     | [1,2,3,4,5,6]",
                "[5,2,1,4,5,6,7] | [5,2,3,4,5,6,7]   | [5,2,3,4,5,6,7]",
                "[1,2,1,4,5,6,7,8] | [1,2,3,4,5,6,7,8] | [1,2,3,4,5,6,7,8]",
                "[12,14]         | [12,14]           | [12,14]",
                // an empty target keeps the input's shape
                "[2,3]           | []                | [2,3]",
                // 1 may grow to 0, and a new leading dim may be 0
                "[1,3]           | [0,3]             | [0,3]",
                "[3]             | [0,3]             | [0,3]",
                // going beyond Paddle's rank 8
                "[1]             | [1,1,1,1,1,1,1,1,1,2] | [1,1,1,1,1,1,1,1,1,2]",
            })
    void expands(String input, String target, String output) {
        assertThat(expand(Dialect.PADDLE, input, target)).isEqualTo(Shape.parse(output));
    }

    @Test
    void rejectsWhatPaddleRejects() {
        assertThatThrownBy(() -> expand(Dialect.PADDLE, "[3]", "[-1,3]"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("[paddle]: dim 0 of the target is -1, which is not allowed in a new leading dim");
        assertThatThrownBy(() -> expand(Dialect.PADDLE, "[2,3]", "[2,4]"))
                .isInstanceOf(IncompatibleShapesException.class)
                .hasMessage("Cannot broadcast (2,3) to (2,4) [paddle]: dim 1 is 3 in the input and 4 in the target;"
                        + " a non-singleton dim cannot change (the target needs 3 or -1 there)");
        assertThatThrownBy(() -> expand(Dialect.PADDLE, "[2]", "[0]")).isInstanceOf(IncompatibleShapesException.class);
        assertThatThrownBy(() -> expand(Dialect.PADDLE, "[1]", "[-3]"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("paddle accepts -1 (keep the input's dim) or a size of 0 or more");
        assertThatThrownBy(() -> expand(Dialect.PADDLE, "[2,3]", "[3]"))
                .isInstanceOf(IncompatibleShapesException.class);
    }

    @Test
    void broadcastTensorsFollowsTheSeed() {
        assertThat(together(Dialect.PADDLE, "[4,1,3]", "[2,3]", "[4,2,1]")).isEqualTo(Shape.of(4, 2, 3));
        assertThat(together(Dialect.PADDLE, "[1,2,3,4]", "[1,2,1,4]", "[1,1,3,1]"))
                .isEqualTo(Shape.of(1, 2, 3, 4));
        assertThat(together(Dialect.PADDLE, "[0]", "[1]")).isEqualTo(Shape.of(0));
        // Paddle documents rank 5 at most; we go beyond
        assertThat(together(Dialect.PADDLE, "[2,1,1,1,1,1]", "[3,1]")).isEqualTo(Shape.of(2, 1, 1, 1, 3, 1));
        assertThatThrownBy(() -> together(Dialect.PADDLE, "[0]", "[3]"))
                .isInstanceOf(IncompatibleShapesException.class)
                .hasMessageContaining("together [paddle]");
    }

    @Test
    void broadcastTensorsNeedsOneSupportedDtype() {
        BroadcastRequest mixed = BroadcastRequest.builder(Dialect.PADDLE)
                .input(Shape.of(2), DType.FLOAT32)
                .input(Shape.of(2), DType.FLOAT64)
                .build();
        assertThatThrownBy(mixed::plan)
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot broadcast tensors [paddle]: input 0 is float32 but input 1 is float64;"
                        + " paddle.broadcast_tensors needs one dtype for all");
        BroadcastRequest bytes = BroadcastRequest.builder(Dialect.PADDLE)
                .input(Shape.of(2), DType.UINT8)
                .build();
        assertThatThrownBy(bytes::plan)
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot broadcast tensors [paddle]: input 0 has dtype uint8; paddle.broadcast_tensors takes"
                        + " bool, int32, int64, float16, bfloat16, float32, float64, complex64, complex128");
        BroadcastRequest halves = BroadcastRequest.builder(Dialect.PADDLE)
                .input(Shape.of(2, 1), DType.BFLOAT16)
                .input(Shape.of(3), DType.BFLOAT16)
                .build();
        assertThat(halves.plan().output()).isEqualTo(Shape.of(2, 3));
    }
}
