package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tensorbroadcast.job.ByteSize;
import dev.tensorbroadcast.planner.AxisList;
import dev.tensorbroadcast.planner.InvalidRequestException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Hostile text for the arguments the command line parses itself: axis lists ({@code --axes-mapping},
 * {@code --broadcast-axes}) and byte sizes ({@code --partition-size}, {@code --max-output}). Each either refuses it
 * with one {@link InvalidRequestException} line, or accepts a value that prints back to itself. Shapes, dtypes and
 * dialects are the planner's ({@code ShapeParsingFuzzTest}). Runs over the committed inputs in
 * {@code CliArgumentsFuzzTestInputs} in every build; {@code fuzz/run.sh} fuzzes it (see {@code docs/reliability.md}).
 */
class CliArgumentsFuzzTest {
    @FuzzTest(maxDuration = "5m")
    void parsesOrRefusesCleanly(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);

        List<Long> axes = parse(value -> AxisList.parse("broadcast axes", value), text);
        if (axes != null) {
            String list = axes.stream().map(String::valueOf).collect(Collectors.joining(",", "[", "]"));
            assertThat(AxisList.parse("broadcast axes", list)).isEqualTo(axes);
        }
        Long bytes = parse(value -> ByteSize.parse("partition size", value), text);
        if (bytes != null) {
            assertThat(bytes).isNotNegative();
            assertThat(ByteSize.parse("partition size", Long.toString(bytes))).isEqualTo(bytes);
            assertThat(ByteSize.format(bytes)).isNotEmpty();
        }
    }

    /** The parsed value, or null when the parser refused the text with a clean one-line message. */
    private static <T> T parse(Function<String, T> parser, String text) {
        try {
            return parser.apply(text);
        } catch (InvalidRequestException e) {
            assertThat(e.getMessage()).startsWith("Cannot parse ").doesNotContain("\n", "\r");
            return null;
        }
    }
}
