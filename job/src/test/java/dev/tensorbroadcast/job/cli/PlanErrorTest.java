package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

class PlanErrorTest {
    private static final String GUIDE_MESSAGE = "Cannot broadcast (2,3) to (4,3) [numpy]: dim 0 is 2 in the input"
            + " and 4 in the target; only 1 can grow (the input needs 4 or 1 there)";

    @Test
    void incompatibleShapesPrintOneLineOnStderr() {
        CliRun run = CliRun.of("plan", "--dialect", "numpy", "--input-shape", "2,3", "--shape", "4,3");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo(GUIDE_MESSAGE + "\n");
    }

    @Test
    void incompatibleShapesAsJson() {
        CliRun run = CliRun.of("plan", "--dialect", "numpy", "--input-shape", "2,3", "--shape", "4,3", "--json");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEmpty();
        assertErrorJson(run, "incompatible_shapes", GUIDE_MESSAGE);
        assertThat(run.json().size()).isEqualTo(1);
        assertThat(run.json().get("error").size()).isEqualTo(2);
    }

    @Test
    void invalidRequests() {
        CliRun dialect = CliRun.of("plan", "--dialect", "tensorflow", "--input-shape", "2,3", "--json");
        CliRun shape = CliRun.of("plan", "--dialect", "numpy", "--input-shape", "2,a", "--json");
        CliRun dtype = CliRun.of("plan", "--dialect", "numpy", "--input-shape", "2", "--dtype", "float8", "--json");
        CliRun minusOne = CliRun.of("plan", "--dialect", "numpy", "--input-shape", "3", "--shape", "-1,3");
        CliRun axes = CliRun.of(
                "plan", "--dialect", "ngraph", "--input-shape", "3", "--shape", "2,3", "--broadcast-axes", "0,a");
        CliRun size = CliRun.of("plan", "--dialect", "numpy", "--input-shape", "3", "--partition-size", "12q");
        CliRun count = CliRun.of("plan", "--dialect", "numpy", "--input-shape", "3", "--partitions", "0", "--json");

        assertErrorJson(
                dialect,
                "invalid_request",
                "Cannot parse dialect 'tensorflow': expected numpy,"
                        + " mindspore, pytorch, paddle, onnx, openvino or ngraph");
        assertErrorJson(
                shape,
                "invalid_request",
                "Cannot parse shape '2,a': 'a' is not an integer; write it as" + " [2,3], 2,3 or [] for a scalar");
        assertThat(dtype.json().get("error").get("message").asText()).startsWith("Cannot parse dtype 'float8'");
        assertErrorJson(count, "invalid_request", "Cannot use 0 partitions: the count must be from 1 to 2147483647");
        assertThat(minusOne.exitCode()).isEqualTo(2);
        assertThat(minusOne.err())
                .isEqualTo("Cannot broadcast (3,) to (-1,3) [numpy]: dim 0 of the target is -1;"
                        + " numpy accepts only dims of 0 or more here\n");
        assertThat(axes.err())
                .isEqualTo("Cannot parse broadcast axes '0,a': 'a' is not an integer; write it as"
                        + " [0,2], 0,2 or [] for none\n");
        assertThat(size.err())
                .isEqualTo("Cannot parse partition size '12q': write a number of bytes with an"
                        + " optional k, m, g or t (binary units), such as 128m or 4096\n");
        assertThat(size.out()).isEmpty();
    }

    @Test
    void tooLarge() {
        CliRun run = CliRun.of(
                "plan", "--dialect", "numpy", "--input-shape", "1", "--shape", "4611686018427387904,4", "--json");

        assertErrorJson(
                run,
                "too_large",
                "Cannot count the elements of shape (4611686018427387904,4): the count"
                        + " exceeds 9223372036854775807");
    }

    @Test
    void usageErrorsPointToHelp() {
        CliRun unknown = CliRun.of("plan", "--dialect", "numpy", "--input-shape", "2", "--bogus");
        CliRun missing = CliRun.of("plan", "--input-shape", "2");
        CliRun noSubcommand = CliRun.of();
        CliRun notALong = CliRun.of("plan", "--dialect", "numpy", "--input-shape", "2", "--partitions", "many");

        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.out()).isEmpty();
        assertThat(unknown.err()).isEqualTo("Unknown option: '--bogus'; see 'tensor-broadcast plan --help'\n");
        assertThat(missing.err())
                .isEqualTo("Missing required option: '--dialect=<dialect>';" + " see 'tensor-broadcast plan --help'\n");
        assertThat(noSubcommand.exitCode()).isEqualTo(2);
        assertThat(noSubcommand.err())
                .isEqualTo("Missing subcommand: expected plan, expand, broadcast-tensors,"
                        + " reduce, demo, inspect, verify, export or cluster; see 'tensor-broadcast --help'\n");
        assertThat(notALong.exitCode()).isEqualTo(2);
        assertThat(notALong.err())
                .startsWith("Invalid value for option '--partitions': 'many' is not a long")
                .endsWith("; see 'tensor-broadcast plan --help'\n");
        assertThat(notALong.err().lines()).hasSize(1);
    }

    @Test
    void usageErrorsAsJson() {
        CliRun run = CliRun.of("plan", "--json", "--dialect", "numpy", "--input-shape", "2", "--bogus");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEmpty();
        assertErrorJson(run, "usage", "Unknown option: '--bogus'; see 'tensor-broadcast plan --help'");
    }

    @Test
    void mutuallyExclusiveOptions() {
        CliRun partitions = CliRun.of(
                "plan", "--dialect", "numpy", "--input-shape", "2", "--partitions", "2", "--partition-size", "1m");
        CliRun axes = CliRun.of(
                "plan",
                "--dialect",
                "ngraph",
                "--input-shape",
                "2",
                "--shape",
                "3,2",
                "--axes-mapping",
                "1",
                "--broadcast-axes",
                "0",
                "--json");

        assertThat(partitions.exitCode()).isEqualTo(2);
        assertThat(partitions.err())
                .isEqualTo(
                        "Cannot use --partition-size with --partitions: they are mutually"
                                + " exclusive (give a size per partition or a partition count); see 'tensor-broadcast plan --help'\n");
        assertErrorJson(
                axes,
                "usage",
                "Cannot use --axes-mapping with --broadcast-axes: they are mutually"
                        + " exclusive (openvino explicit mode takes the first, ngraph the second);"
                        + " see 'tensor-broadcast plan --help'");
    }

    @Test
    void stackTraceOnlyWithVerbose() {
        CliRun quiet = CliRun.of("plan", "--dialect", "numpy", "--input-shape", "2,3", "--shape", "4,3");
        CliRun verbose = CliRun.of("plan", "--dialect", "numpy", "--input-shape", "2,3", "--shape", "4,3", "--verbose");
        CliRun verboseUsage = CliRun.of("plan", "--verbose", "--dialect", "numpy", "--input-shape", "2", "--bogus");

        assertThat(quiet.err()).doesNotContain("\tat ");
        assertThat(verbose.exitCode()).isEqualTo(2);
        assertThat(verbose.out()).isEmpty();
        assertThat(verbose.err())
                .startsWith(GUIDE_MESSAGE + "\n" + "dev.tensorbroadcast.planner.IncompatibleShapesException: "
                        + GUIDE_MESSAGE)
                .contains("\tat dev.tensorbroadcast.planner.");
        assertThat(verboseUsage.err())
                .startsWith("Unknown option: '--bogus'; see 'tensor-broadcast plan --help'\n")
                .contains("\tat picocli.");
    }

    @Test
    void internalErrorsExitWithOne() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = TensorBroadcastCli.commandLine(new PrintWriter(out), new PrintWriter(err));
        ParseResult parsed = commandLine.parseArgs("plan", "--dialect", "numpy", "--input-shape", "2");
        CommandLine plan = commandLine.getSubcommands().get("plan");

        int exitCode = ErrorReporter.handleExecutionError(new IllegalStateException("no buffer"), plan, parsed);

        assertThat(exitCode).isEqualTo(1);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString())
                .isEqualTo("internal error: java.lang.IllegalStateException: no buffer" + System.lineSeparator());
    }

    @Test
    void internalErrorsAsJsonWithStackTrace() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = TensorBroadcastCli.commandLine(new PrintWriter(out), new PrintWriter(err));
        ParseResult parsed =
                commandLine.parseArgs("plan", "--dialect", "numpy", "--input-shape", "2", "--json", "--verbose");
        CommandLine plan = commandLine.getSubcommands().get("plan");

        int exitCode = ErrorReporter.handleExecutionError(new IllegalStateException("no\nbuffer"), plan, parsed);

        assertThat(exitCode).isEqualTo(1);
        assertThat(out.toString().strip())
                .isEqualTo(
                        "{\"error\":{\"kind\":\"internal\",\"message\":\"internal error: java.lang.IllegalStateException: no"
                                + " buffer\"}}");
        assertThat(err.toString()).startsWith("java.lang.IllegalStateException: no");
    }

    private static void assertErrorJson(CliRun run, String kind, String message) {
        assertThat(run.exitCode()).isEqualTo(2);
        JsonNode error = run.json().get("error");
        assertThat(error.get("kind").asText()).isEqualTo(kind);
        assertThat(error.get("message").asText()).isEqualTo(message);
    }

    @Test
    void typosGetTheNearestNames() {
        assertThat(CliRun.of("expnad", "--input", "x").err())
                .isEqualTo("Unmatched arguments from index 0: 'expnad',"
                        + " '--input', 'x'; did you mean expand?; see 'tensor-broadcast --help'\n");
        assertThat(CliRun.of("plan", "--dialect", "numpy", "--input-shape", "2", "--partitons", "2")
                        .err())
                .isEqualTo("Unknown option: '--partitons'; did you mean --partitions?; see 'tensor-broadcast"
                        + " plan --help'\n");
        // the value typed after an unknown option is its value, not an option of its own
        assertThat(CliRun.of("expand", "--dialect", "numpy", "--input", "x.npy", "--shpae", "2,3", "--output", "o")
                        .err())
                .isEqualTo("Unknown option: '--shpae'; did you mean --shape?; see 'tensor-broadcast expand"
                        + " --help'\n");
        assertThat(CliRun.of("plan", "--dialect", "numpy", "--input-shape", "2", "--bogus", "-1", "--shpae=3")
                        .err())
                .isEqualTo("Unknown options: '--bogus', '--shpae=3'; see 'tensor-broadcast plan --help'\n");
        assertThat(Typos.distance("shpae", "shape")).isEqualTo(1);
        assertThat(Typos.distance("expnad", "expand")).isEqualTo(1);
        assertThat(Typos.distance("reduce", "expand")).isEqualTo(6);
    }
}
