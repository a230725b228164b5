package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code reduce} against PyTorch's autograd, for every dialect and mode: the fixtures (made by
 * {@code fixtures/reduce/make_reduce_fixtures.py}) hold a gradient and the gradient torch computes for the forward
 * input. The .npy we write must be the very bytes numpy wrote for torch's answer, header included, for one task and
 * for several (the gradients are small integers, so the order of the additions cannot change a bit), with the
 * gradient shipped and with its rows read from the file by the tasks.
 */
class ReduceFixturesTest {
    private static final Path FIXTURES = fixtures();

    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    Path dir;

    private static Path fixtures() {
        try {
            return Paths.get(ReduceFixturesTest.class
                            .getResource("/fixtures/reduce/cases.json")
                            .toURI())
                    .getParent();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static Stream<Arguments> cases() throws Exception {
        JsonNode cases =
                new ObjectMapper().readTree(FIXTURES.resolve("cases.json").toFile());
        List<Arguments> arguments = new ArrayList<>();
        for (JsonNode entry : cases) {
            List<String> args = new ArrayList<>();
            entry.get("args").forEach(arg -> args.add(arg.asText()));
            for (String partitions : List.of("1", "3")) {
                // a ship threshold of 0 leaves the gradient in its file, whose rows the tasks read by offset
                for (String shipThreshold : List.of("64m", "0")) {
                    arguments.add(Arguments.of(entry.get("name").asText(), args, partitions, shipThreshold));
                }
            }
        }
        return arguments.stream();
    }

    @ParameterizedTest(name = "{0} in {2} tasks, ship threshold {3}")
    @MethodSource("cases")
    void writesWhatTorchComputes(String name, List<String> request, String partitions, String shipThreshold)
            throws Exception {
        Path output = dir.resolve(name + ".npy");
        List<String> args = new ArrayList<>(List.of(
                "reduce",
                "--input",
                FIXTURES.resolve(name + ".grad.npy").toString(),
                "--output",
                output.toString(),
                "--partitions",
                partitions,
                "--ship-threshold",
                shipThreshold));
        args.addAll(request);
        CliRun run = CliRun.of(args.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(Files.readAllBytes(output))
                .as(name)
                .isEqualTo(Files.readAllBytes(FIXTURES.resolve(name + ".expected.npy")));
    }
}
