package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * What {@code --help} says and the lines that point a user the right way: an example in every command's help that
 * runs, text that picocli wraps (never broken by hand mid-sentence), suggestions for a mistyped command or dialect,
 * and counts in the singular for one.
 */
class HelpTextTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    private static final String EXAMPLE = "  tensor-broadcast ";

    @TempDir
    Path dir;

    private static Map<String, CommandLine> commands() {
        Map<String, CommandLine> commands = new LinkedHashMap<>();
        CommandLine root = TensorBroadcastCli.commandLine(
                new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
        commands.put("", root);
        collect(root, commands);
        return commands;
    }

    private static void collect(CommandLine line, Map<String, CommandLine> into) {
        for (CommandLine sub : line.getSubcommands().values()) {
            into.put(sub.getCommandSpec().qualifiedName(" ").substring("tensor-broadcast ".length()), sub);
            collect(sub, into);
        }
    }

    /** The footer's examples, a line ending in a backslash joined to the next, as a shell joins them. */
    private static List<String> examples(CommandLine line) {
        List<String> examples = new ArrayList<>();
        StringBuilder current = null;
        for (String text : line.getCommandSpec().usageMessage().footer()) {
            if (current == null && !text.startsWith(EXAMPLE)) {
                continue;
            }
            String body = text.strip();
            current = current == null
                    ? new StringBuilder(body)
                    : current.append(' ').append(body);
            if (body.endsWith("\\")) {
                current.setLength(current.length() - 1);
                current = new StringBuilder(current.toString().strip());
            } else {
                examples.add(current.toString());
                current = null;
            }
        }
        return examples;
    }

    @Test
    void everyCommandsHelpEndsWithAnExampleThatParses() {
        commands().forEach((name, line) -> {
            List<String> examples = examples(line);
            assertThat(examples).as(name).isNotEmpty();
            assertThat(CliRun.of(name.isEmpty() ? new String[] {"--help"} : (name + " --help").split(" "))
                            .out())
                    .as(name)
                    .contains("\nExample:\n" + EXAMPLE);
            for (String example : examples) {
                String[] words = example.split(" ");
                assertThat(words[0]).isEqualTo("tensor-broadcast");
                String[] args = Arrays.copyOfRange(words, 1, words.length);
                // every option it names exists where it is given, with a value of the right arity
                TensorBroadcastCli.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()))
                        .parseArgs(args);
                // the sources it names are the README's
                Arrays.stream(args)
                        .filter(arg -> arg.startsWith("examples/"))
                        .forEach(path -> assertThat(Path.of("..").resolve(path))
                                .as(example)
                                .isRegularFile());
            }
        });
    }

    @Test
    void plansExamplesRun() {
        for (String example : examples(commands().get("plan"))) {
            String[] args = example.substring("tensor-broadcast ".length())
                    .replace("examples/", "../examples/")
                    .split(" ");
            CliRun run = CliRun.of(args);
            assertThat(run.exitCode()).as(example + ": " + run.err()).isZero();
            assertThat(run.out()).contains("copy program  ");
        }
    }

    /** Every description line, the commands' and the options', is whole sentences: picocli wraps them. */
    @Test
    void noTextIsBrokenMidSentence() {
        commands().forEach((name, line) -> {
            List<String> texts = new ArrayList<>(
                    Arrays.asList(line.getCommandSpec().usageMessage().description()));
            Arrays.stream(line.getCommandSpec().usageMessage().footer())
                    .filter(text -> !text.startsWith("  "))
                    .forEach(texts::add);
            for (OptionSpec option : line.getCommandSpec().options()) {
                texts.addAll(Arrays.asList(option.description()));
            }
            for (String text : texts) {
                assertThat(text).as(name).matches("(?s).*[.)?!]$").doesNotContain("\n");
            }
        });
        assertThat(commands().get("expand").getCommandSpec().usageMessage().autoWidth())
                .isTrue();
    }

    @Test
    void reduceHelpOffersWhatReduceWrites() {
        CliRun help = CliRun.of("reduce", "--help");
        assertThat(help.out())
                .contains("--output=<file.npy|dir>")
                .doesNotContain("null")
                .contains("  tensor-broadcast reduce --input /tmp/tb/numpy");
        assertThat(help.out().replaceAll("\\s+", " "))
                .contains("a path ending in .npy is one .npy file on the" + " driver's local disk")
                .contains("npy, arrow (Arrow IPC files), parquet or zarr (one Zarr v3 array);");
    }

    @Test
    void verifyHelpShowsOnlyWhatVerifyReads() {
        String help = CliRun.of("verify", "--help").out();
        assertThat(help)
                .contains("--source=<file|dir>")
                .contains("--column=<name>")
                .contains("--row-shape=<shape>")
                .doesNotContain("--ship-threshold");
    }

    @Test
    void aMistypedCommandGetsTheNearestOne() {
        CliRun run = CliRun.of("reduec", "--input", "g.npy");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("Unmatched arguments from index 0: 'reduec', '--input', 'g.npy'; did you mean"
                        + " reduce?; see 'tensor-broadcast --help'\n");
        assertThat(CliRun.of("cluster", "stats").err()).contains("did you mean status?");
    }

    @ParameterizedTest
    @CsvSource({"torch, pytorch", "np, numpy", "ov, openvino", "ms, mindspore", "Torch, pytorch", "nunpy, numpy"})
    void aDialectsAliasOrTypoIsSuggestedNotTaken(String typed, String meant) {
        CliRun run = CliRun.of("plan", "--dialect", typed, "--input-shape", "3");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("Cannot parse dialect '" + typed + "': expected numpy, mindspore, pytorch,"
                        + " paddle, onnx, openvino or ngraph; did you mean " + meant + "?\n");
        CliRun joint = CliRun.of("broadcast-tensors", "--input", "a.npy", "--dialect", typed, "--output", "x");
        assertThat(joint.err()).endsWith("; did you mean " + meant + "?\n");
    }

    @Test
    void aWordFarFromEveryDialectGetsNoGuess() {
        assertThat(CliRun.of("plan", "--dialect", "tensorflow", "--input-shape", "3")
                        .err())
                .isEqualTo(
                        "Cannot parse"
                                + " dialect 'tensorflow': expected numpy, mindspore, pytorch, paddle, onnx, openvino or ngraph\n");
    }

    @Test
    void oneOfAThingIsSingular() {
        assertThat(CliRun.of("plan", "--dialect", "numpy", "--input-shape", "3", "--shape", "1,3")
                        .out())
                .contains("partitions    1 of 1 row, 12 B each");
        CliRun discard = CliRun.of(
                "expand",
                "--input",
                "../examples/row3.npy",
                "--dialect",
                "numpy",
                "--shape",
                "1,3",
                "--format",
                "null");
        assertThat(discard.exitCode()).as(discard.err()).isZero();
        assertThat(discard.err()).startsWith("computing [1,3] float32 (12 B) in 1 partition and discarding it\n");
        assertThat(discard.out())
                .startsWith("computed and discarded [1,3] float32: 1 row, 12 B of values in 1" + " partition, in ");
    }

    @Test
    void reducesDryRunCountsOneCopy() throws Exception {
        Path gradient = dev.tensorbroadcast.job.pipeline.NpyFiles.int32(dir.resolve("g.npy"), new long[] {2, 3});
        CliRun run = CliRun.of(
                "reduce",
                "--input",
                gradient.toString(),
                "--dialect",
                "numpy",
                "--input-shape",
                "[2,3]",
                "--output",
                dir.resolve("r.npy").toString(),
                "--dry-run");
        assertThat(run.out())
                .contains("summing axes [] of the gradient (1 copy of each element)")
                .contains("1 task, each");
    }

    /** 4x3 is read as [4,3], as the help says; any other notation is refused with the ones read. */
    @Test
    void shapesAreWrittenAsTheHelpSays() {
        assertThat(CliRun.of("plan", "--help").out().replaceAll("\\s+", " "))
                .contains("Shapes are written [2,3], 2,3 or 2x3; [] is a scalar.");
        assertThat(CliRun.of("plan", "--dialect", "numpy", "--input-shape", "3", "--shape", "4x3")
                        .out())
                .contains("output        [4,3]");
        CliRun star = CliRun.of("plan", "--dialect", "numpy", "--input-shape", "3", "--shape", "4*3");
        assertThat(star.exitCode()).isEqualTo(2);
        assertThat(star.err())
                .isEqualTo("Cannot parse target shape '4*3': '4*3' is not an integer; write it as"
                        + " [2,3], 2,3 or [] for a scalar\n");
    }

    @Test
    void anUnreadableInputNamesEveryFormatRead() throws Exception {
        Path csv = Files.writeString(dir.resolve("table.csv"), "a,b\n1,2\n");
        CliRun run = CliRun.of("plan", "--dialect", "numpy", "--input", csv.toString(), "--shape", "2");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("Cannot read " + csv + ": it is neither a .npy file, an Arrow IPC file or"
                        + " stream nor a Parquet file: it starts with neither \\x93NUMPY, ARROW1, an Arrow stream message"
                        + " nor PAR1; a directory of Arrow IPC or Parquet files is read as a dataset\n");
    }

    /** Options that say how to read an input file do nothing with shapes alone; a dtype is a file's own. */
    @Test
    void planRefusesOptionsItsInputsMakeMeaningless() {
        CliRun keep = CliRun.of("plan", "--dialect", "numpy", "--input-shape", "3", "--keep", "id");
        assertThat(keep.exitCode()).isEqualTo(2);
        assertThat(keep.err())
                .isEqualTo("Cannot use --keep with --input-shape: it applies to an input file or"
                        + " dataset; give --input, or drop --keep; see 'tensor-broadcast plan --help'\n");
        CliRun dtype = CliRun.of("plan", "--dialect", "numpy", "--input", "../examples/row3.npy", "--dtype", "int8");
        assertThat(dtype.err())
                .isEqualTo("Cannot use --dtype with --input: the dtype is each file's own; drop"
                        + " --dtype; see 'tensor-broadcast plan --help'\n");
    }

    @ParameterizedTest
    @CsvSource({"--encoding, byte-stream-split", "--row-group-size, 1m", "--max-output, 1g", "--keep, none"})
    void theNullSinkRefusesOptionsAboutFiles(String option, String value) {
        CliRun run = CliRun.of(
                "expand",
                "--input",
                "../examples/row3.npy",
                "--dialect",
                "numpy",
                "--shape",
                "2,3",
                "--format",
                "null",
                option,
                value);
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .startsWith("Cannot use " + option + " with --format null: the null sink ")
                .endsWith("; drop " + option + "; see 'tensor-broadcast expand --help'\n");
    }
}
