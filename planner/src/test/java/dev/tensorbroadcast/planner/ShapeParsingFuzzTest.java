package dev.tensorbroadcast.planner;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;

/**
 * Hostile command-line text for every argument the planner parses: shapes, target shapes, dtypes, dialects and
 * modes. Each either refuses it with one {@link BroadcastException} line, or accepts a value that prints back to
 * itself. Runs over the committed inputs in {@code ShapeParsingFuzzTestInputs} in every build; {@code fuzz/run.sh}
 * fuzzes it (see {@code docs/reliability.md}).
 */
class ShapeParsingFuzzTest {
    @FuzzTest(maxDuration = "5m")
    void parsesOrRefusesCleanly(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);

        Shape shape = parse(Shape::parse, text);
        if (shape != null) {
            assertThat(shape.rank()).isLessThanOrEqualTo(Shape.MAX_RANK);
            assertThat(java.util.Arrays.stream(shape.dims()).min().orElse(0)).isNotNegative();
            assertThat(Shape.parse(shape.toList())).isEqualTo(shape);
            assertThat(Shape.parse(shape.toString())).isEqualTo(shape);
        }
        TargetShape target = parse(TargetShape::parse, text);
        assertThat(shape != null && target == null)
                .as("a shape is a target shape too")
                .isFalse();
        if (target != null) {
            assertThat(target.rank()).isLessThanOrEqualTo(Shape.MAX_RANK);
            assertThat(TargetShape.parse(target.toList())).isEqualTo(target);
            assertThat(TargetShape.parse(target.toString())).isEqualTo(target);
            if (shape != null) {
                assertThat(target.toShape()).isEqualTo(shape);
            }
        }
        DType dtype = parse(DType::parse, text);
        if (dtype != null) {
            assertThat(DType.parse(dtype.typeName())).isEqualTo(dtype);
        }
        Dialect dialect = parse(Dialect::parse, text);
        if (dialect != null) {
            assertThat(Dialect.parse(dialect.dialectName())).isEqualTo(dialect);
        }
        BroadcastMode mode = parse(BroadcastMode::parse, text);
        if (mode != null) {
            assertThat(BroadcastMode.parse(mode.toString())).isEqualTo(mode);
        }
    }

    /** The parsed value, or null when the parser refused the text with a clean one-line message. */
    private static <T> T parse(Function<String, T> parser, String text) {
        try {
            return parser.apply(text);
        } catch (InvalidRequestException | TooLargeException e) {
            assertThat(e.getMessage()).startsWith("Cannot ").doesNotContain("\n", "\r");
            return null;
        }
    }
}
