package dev.tensorbroadcast.job.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * A run whose first word is a subcommand builds the top level with that subcommand alone (it starts sooner): what it
 * prints and returns must be what the whole tree would print and return.
 */
class OneSubcommandTreeTest {
    private static final List<String> NAMES = List.copyOf(
            TensorBroadcastCli.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()))
                    .getSubcommands()
                    .keySet());

    @Test
    void aSubcommandsNameBuildsThatSubcommandAlone() {
        assertThat(NAMES).hasSize(9).contains("plan", "expand", "reduce", "cluster");
        for (String name : NAMES) {
            CommandLine line = TensorBroadcastCli.commandLine(
                    new PrintWriter(new StringWriter()),
                    new PrintWriter(new StringWriter()),
                    new String[] {name, "--help"});
            assertThat(line.getSubcommands().keySet()).as(name).containsExactly(name);
            assertThat(line.getSubcommands().get(name).getCommandSpec().qualifiedName())
                    .isEqualTo("tensor-broadcast " + name);
        }
    }

    @Test
    void otherFirstWordsBuildTheWholeTree() {
        for (String[] args : List.of(
                new String[] {},
                new String[] {"--help"},
                new String[] {"-V"},
                new String[] {"plam"},
                new String[] {"--plan"},
                new String[] {"Plan"})) {
            CommandLine line = TensorBroadcastCli.commandLine(
                    new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), args);
            assertThat(line.getSubcommands().keySet())
                    .as(String.join(" ", args))
                    .containsExactlyElementsOf(NAMES);
        }
    }

    @Test
    void helpErrorsAndSuggestionsAreTheWholeTrees() {
        List<String[]> cases = new ArrayList<>();
        for (String name : NAMES) {
            cases.add(new String[] {name, "--help"});
            cases.add(new String[] {name, "-V"});
            cases.add(new String[] {name, "--bogus"});
            cases.add(new String[] {name, "--json", "--bogus"});
            cases.add(new String[] {name, "--verbos"});
        }
        for (String name : Set.of("start", "status", "stop")) {
            cases.add(new String[] {"cluster", name, "--help"});
            cases.add(new String[] {"cluster", name, "--bogus"});
        }
        cases.add(new String[] {"cluster", "stat"});
        cases.add(new String[] {"cluster"});
        cases.add(new String[] {"plan"});
        cases.add(new String[] {"plan", "--dialet", "numpy"});
        cases.add(new String[] {"plan", "--dialect", "nump", "--input-shape", "1", "--shape", "2"});
        cases.add(new String[] {"plan", "--dialect", "numpy", "--input-shape", "[2,", "3]", "--shape", "4,3"});
        cases.add(new String[] {"plan", "--dialect", "numpy", "--input-shape", "1,16", "--shape", "64,16"});
        cases.add(new String[] {"plan", "--dialect", "numpy", "--input-shape", "1,16", "--shape", "64,16", "expand"});
        cases.add(new String[] {"inspect"});
        for (String[] args : cases) {
            Printed whole = Printed.of(args, true);
            Printed one = Printed.of(args, false);
            assertThat(one).as(String.join(" ", args)).isEqualTo(whole);
            assertThat(one.out() + one.err()).as(String.join(" ", args)).isNotBlank();
        }
    }

    private record Printed(int exitCode, String out, String err) {
        static Printed of(String[] args, boolean wholeTree) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            PrintWriter outWriter =
                    new PrintWriter(new OutputStreamWriter(new PrintStream(out, true, UTF_8), UTF_8), true);
            PrintWriter errWriter =
                    new PrintWriter(new OutputStreamWriter(new PrintStream(err, true, UTF_8), UTF_8), true);
            CommandLine line = wholeTree
                    ? TensorBroadcastCli.commandLine(outWriter, errWriter)
                    : TensorBroadcastCli.commandLine(outWriter, errWriter, args);
            int exitCode = line.execute(args);
            outWriter.flush();
            errWriter.flush();
            return new Printed(exitCode, out.toString(UTF_8), err.toString(UTF_8));
        }
    }
}
