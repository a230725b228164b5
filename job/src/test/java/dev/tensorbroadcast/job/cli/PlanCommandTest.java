package dev.tensorbroadcast.job.cli;

import static dev.tensorbroadcast.job.cli.CliRun.longs;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

class PlanCommandTest {
    @Test
    void numpyBroadcastToAsJson() {
        CliRun run = CliRun.of("plan", "--dialect", "numpy", "--input-shape", "[1,3]", "--shape", "[4,3]", "--json");

        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).isEmpty();
        JsonNode json = run.json();
        assertThat(json.get("dialect").asText()).isEqualTo("numpy");
        assertThat(json.has("mode")).isFalse();
        assertThat(longs(json.get("shape"))).containsExactly(4, 3);
        assertThat(json.get("input_shapes").size()).isEqualTo(1);
        assertThat(longs(json.get("input_shapes").get(0))).containsExactly(1, 3);
        assertThat(json.get("dtype").asText()).isEqualTo("float32");
        assertThat(json.get("elements").asLong()).isEqualTo(12);
        assertThat(json.get("bytes").asLong()).isEqualTo(48);
        assertThat(json.get("rows").asLong()).isEqualTo(4);
        assertThat(json.get("row_dims").asInt()).isEqualTo(1);
        assertThat(longs(json.get("row_shape"))).containsExactly(3);
        assertThat(json.get("row_bytes").asLong()).isEqualTo(12);
        assertThat(json.get("partitions").asLong()).isEqualTo(1);
        assertThat(json.get("partition_rows").get("min").asLong()).isEqualTo(4);
        assertThat(json.get("partition_rows").get("max").asLong()).isEqualTo(4);
        JsonNode program = json.get("copy_program");
        assertThat(longs(program.get("counts"))).containsExactly(4, 3);
        assertThat(longs(program.get("strides"))).containsExactly(0, 1);
        assertThat(program.get("innermost_run").asLong()).isEqualTo(3);
        assertThat(program.get("innermost_repeats").asBoolean()).isFalse();
        assertThat(json.has("copy_programs")).isFalse();
    }

    @Test
    void jsonIsOneLineWithOneObject() {
        CliRun run = CliRun.of("plan", "--dialect", "numpy", "--input-shape", "1,3", "--shape", "4,3", "--json");

        assertThat(run.out()).endsWith("}\n").startsWith("{");
        assertThat(run.out().strip()).doesNotContain("\n");
    }

    @Test
    void paddleBroadcastTensorsGivesTheCommonShapeAndOneProgramPerInput() {
        CliRun run = CliRun.of(
                "plan",
                "--dialect",
                "paddle",
                "--input-shape",
                "[4,1,3]",
                "--input-shape",
                "[2,3]",
                "--input-shape",
                "[4,2,1]",
                "--json");

        assertThat(run.exitCode()).isZero();
        JsonNode json = run.json();
        assertThat(longs(json.get("shape"))).containsExactly(4, 2, 3);
        assertThat(json.get("elements").asLong()).isEqualTo(24);
        assertThat(json.get("input_shapes").size()).isEqualTo(3);
        assertThat(longs(json.get("input_shapes").get(2))).containsExactly(4, 2, 1);
        JsonNode programs = json.get("copy_programs");
        assertThat(programs.size()).isEqualTo(3);
        assertThat(longs(programs.get(0).get("strides"))).containsExactly(3, 0, 1);
        assertThat(longs(programs.get(1).get("counts"))).containsExactly(4, 6);
        assertThat(longs(programs.get(1).get("strides"))).containsExactly(0, 1);
        assertThat(programs.get(1).get("innermost_run").asLong()).isEqualTo(6);
        assertThat(longs(programs.get(2).get("counts"))).containsExactly(8, 3);
        assertThat(longs(programs.get(2).get("strides"))).containsExactly(1, 0);
        assertThat(programs.get(2).get("innermost_repeats").asBoolean()).isTrue();
        assertThat(json.get("copy_program")).isEqualTo(programs.get(0));
    }

    @Test
    void numpyBroadcastShapesWithoutATarget() {
        JsonNode json = CliRun.of(
                        "plan", "--dialect", "numpy", "--input-shape", "8,1,6,1", "--input-shape", "7,1,5", "--json")
                .json();

        assertThat(longs(json.get("shape"))).containsExactly(8, 7, 6, 5);
    }

    @Test
    void openvinoExplicitWithAxesMapping() {
        CliRun run = CliRun.of(
                "plan",
                "--dialect",
                "openvino",
                "--mode",
                "explicit",
                "--input-shape",
                "[2,3]",
                "--shape",
                "[2,4,3]",
                "--axes-mapping",
                "[0,2]",
                "--json");

        assertThat(run.exitCode()).isZero();
        JsonNode json = run.json();
        assertThat(json.get("mode").asText()).isEqualTo("explicit");
        assertThat(longs(json.get("shape"))).containsExactly(2, 4, 3);
        assertThat(longs(json.get("copy_program").get("strides"))).containsExactly(3, 0, 1);
    }

    @Test
    void openvinoReportsItsDefaultMode() {
        JsonNode json = CliRun.of("plan", "--dialect", "openvino", "--input-shape", "3", "--shape", "2,3", "--json")
                .json();

        assertThat(json.get("mode").asText()).isEqualTo("numpy");
    }

    @Test
    void ngraphWithBroadcastAxes() {
        JsonNode rows = CliRun.of(
                        "plan",
                        "--dialect",
                        "ngraph",
                        "--input-shape",
                        "[3]",
                        "--shape",
                        "[2,3]",
                        "--broadcast-axes",
                        "[0]",
                        "--json")
                .json();
        JsonNode columns = CliRun.of(
                        "plan",
                        "--dialect",
                        "ngraph",
                        "--input-shape",
                        "[3]",
                        "--shape",
                        "[3,2]",
                        "--broadcast-axes",
                        "1",
                        "--json")
                .json();

        assertThat(longs(rows.get("shape"))).containsExactly(2, 3);
        assertThat(longs(rows.get("copy_program").get("strides"))).containsExactly(0, 1);
        assertThat(longs(columns.get("shape"))).containsExactly(3, 2);
        assertThat(longs(columns.get("copy_program").get("strides"))).containsExactly(1, 0);
    }

    @Test
    void onnxOutputLargerThanShape() {
        JsonNode json = CliRun.of("plan", "--dialect", "onnx", "--input-shape", "[3,1]", "--shape", "[2,1,6]", "--json")
                .json();

        assertThat(longs(json.get("shape"))).containsExactly(2, 3, 6);
        assertThat(json.get("elements").asLong()).isEqualTo(36);
    }

    @Test
    void negativeValuesAreValuesNotOptions() {
        JsonNode keep = CliRun.of(
                        "plan", "--dialect", "mindspore", "--input-shape", "[2,1]", "--shape", "-1,2", "--json")
                .json();
        JsonNode single = CliRun.of("plan", "--dialect", "pytorch", "--input-shape", "5", "--shape", "-1", "--json")
                .json();
        JsonNode attached = CliRun.of("plan", "--dialect", "paddle", "--input-shape", "3,1", "--shape=-1,4", "--json")
                .json();
        JsonNode axis = CliRun.of(
                        "plan",
                        "--dialect",
                        "openvino",
                        "--mode",
                        "pdpd",
                        "--input-shape",
                        "3",
                        "--shape",
                        "2,3",
                        "--axis",
                        "-1",
                        "--json")
                .json();

        assertThat(longs(keep.get("shape"))).containsExactly(2, 2);
        assertThat(longs(single.get("shape"))).containsExactly(5);
        assertThat(longs(attached.get("shape"))).containsExactly(3, 4);
        assertThat(longs(axis.get("shape"))).containsExactly(2, 3);
    }

    @Test
    void hugePlanAnswersWithTheAskedPartitionCount() {
        CliRun run = CliRun.of(
                "plan",
                "--dialect",
                "numpy",
                "--input-shape",
                "[1]",
                "--shape",
                "[1000000,1000000,1000]",
                "--partitions",
                "1000000",
                "--json");

        assertThat(run.exitCode()).isZero();
        JsonNode json = run.json();
        assertThat(json.get("partitions").asLong()).isEqualTo(1_000_000);
        assertThat(json.get("elements").asLong()).isEqualTo(1_000_000_000_000_000L);
        assertThat(json.get("bytes").asLong()).isEqualTo(4_000_000_000_000_000L);
        assertThat(json.get("rows").asLong()).isEqualTo(1_000_000_000_000L);
        assertThat(longs(json.get("row_shape"))).containsExactly(1000);
        assertThat(json.get("partition_rows").get("min").asLong()).isEqualTo(1_000_000);
    }

    @Test
    void partitionSizeInBinaryUnits() {
        // 1024 rows of 4 KiB: 64k holds 16 rows
        JsonNode json = CliRun.of(
                        "plan",
                        "--dialect",
                        "numpy",
                        "--input-shape",
                        "1,1024",
                        "--shape",
                        "1024,1024",
                        "--partition-size",
                        "64K",
                        "--json")
                .json();

        assertThat(json.get("row_bytes").asLong()).isEqualTo(4096);
        assertThat(json.get("partitions").asLong()).isEqualTo(64);
        assertThat(json.get("partition_bytes").get("max").asLong()).isEqualTo(65536);
    }

    @Test
    void dtypeSetsTheWidth() {
        JsonNode json = CliRun.of(
                        "plan",
                        "--dialect",
                        "numpy",
                        "--input-shape",
                        "3",
                        "--shape",
                        "2,3",
                        "--dtype",
                        "float64",
                        "--json")
                .json();

        assertThat(json.get("dtype").asText()).isEqualTo("float64");
        assertThat(json.get("bytes").asLong()).isEqualTo(48);
    }

    @Test
    void textOutputIsAlignedLines() {
        CliRun run = CliRun.of("plan", "--dialect", "numpy", "--input-shape", "1,3", "--shape", "4,3");

        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out()).isEqualTo("""
                dialect       numpy
                inputs        [1,3]
                output        [4,3]
                dtype         float32
                elements      12
                bytes         48 (48 B)
                rows          4 x [3] (12 B each)
                partitions    1 of 4 rows, 48 B each
                copy program  4x(stride 0) 3x(stride 1); innermost run 3
                """);
    }

    @Test
    void textOutputShowsUnitsRangesAndEachInput() {
        String big = CliRun.of(
                        "plan",
                        "--dialect",
                        "numpy",
                        "--input-shape",
                        "1,4096",
                        "--shape",
                        "65536,4096",
                        "--partitions",
                        "3")
                .out();
        String several = CliRun.of(
                        "plan",
                        "--dialect",
                        "openvino",
                        "--mode",
                        "bidirectional",
                        "--input-shape",
                        "3,1",
                        "--shape",
                        "1,4")
                .out();

        assertThat(big)
                .contains("bytes         1073741824 (1.0 GiB)\n")
                .contains("rows          65536 x [4096] (16.0 KiB each)\n")
                .contains("partitions    3 of 21845..21846 rows, 341.3 MiB each\n");
        assertThat(several)
                .startsWith("dialect       openvino (mode bidirectional)\n")
                .contains("copy program  3x(stride 1) 4x(stride 0); innermost run 1 (one element repeated)\n");
    }

    /** The zero-size requests of issue 24: each once ended in "internal error: ... Cannot trace rows: 0 source rows". */
    @Test
    void zeroSizeRequestsArePlannedInEveryDialectThatTakesThem() {
        String[][] requests = {
            {"--dialect", "numpy", "--input-shape", "[0,3]"},
            {"--dialect", "mindspore", "--input-shape", "[0]", "--shape", "[-1]"},
            {"--dialect", "pytorch", "--input-shape", "[0,1,1]", "--shape", "[-1,2,1]"},
            {"--dialect", "onnx", "--input-shape", "[0,1,4]", "--shape", "[1]"},
        };
        long[][] shapes = {{0, 3}, {0}, {0, 2, 1}, {0, 1, 4}};
        for (int i = 0; i < requests.length; i++) {
            String[] args = new String[requests[i].length + 2];
            args[0] = "plan";
            System.arraycopy(requests[i], 0, args, 1, requests[i].length);
            args[args.length - 1] = "--json";
            CliRun run = CliRun.of(args);

            assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
            JsonNode json = run.json();
            assertThat(longs(json.get("shape"))).containsExactly(shapes[i]);
            assertThat(json.get("elements").asLong()).isZero();
            assertThat(json.get("rows").asLong()).isZero();
            assertThat(json.get("partitions").asLong()).isEqualTo(1);
            assertThat(json.get("partition_rows").get("max").asLong()).isZero();
        }
    }

    @Test
    void anOutputOfNoRowsSaysItsOnePartitionIsEmpty() {
        CliRun run = CliRun.of("plan", "--dialect", "numpy", "--input-shape", "[0,3]");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("rows          0 x [3] (12 B each)\n")
                .contains("partitions    1, empty (the output has 0 rows)\n");
    }

    @Test
    void oneRowIsOneRow() {
        String one = CliRun.of("plan", "--dialect", "numpy", "--input-shape", "[1,3]")
                .out();
        String each = CliRun.of("plan", "--dialect", "numpy", "--input-shape", "[3,3]", "--partitions", "3")
                .out();

        assertThat(one).contains("partitions    1 of 1 row, 12 B each\n");
        assertThat(each).contains("partitions    3 of 1 row, 12 B each\n");
    }

    @Test
    void helpAndVersion() {
        CliRun help = CliRun.of("plan", "--help");
        CliRun topHelp = CliRun.of("--help");
        CliRun version = CliRun.of("--version");

        assertThat(help.exitCode()).isZero();
        assertThat(help.out())
                .contains("Usage: tensor-broadcast plan")
                .contains("--partition-size")
                .contains("--broadcast-axes");
        assertThat(topHelp.exitCode()).isZero();
        assertThat(topHelp.out()).contains("plan");
        assertThat(version.exitCode()).isZero();
        assertThat(version.out()).matches("tensor-broadcast \\d+\\.\\d+\\.\\d+\\S*\\n");
    }
}
