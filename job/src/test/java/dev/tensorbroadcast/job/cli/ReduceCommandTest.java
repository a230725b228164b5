package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code reduce} in-process: what it prints, its plan, and every refusal as one line with exit code 2. */
class ReduceCommandTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    Path dir;

    private Path gradient;

    @BeforeEach
    void writeGradient() throws Exception {
        gradient = NpyFiles.int32(dir.resolve("grad.npy"), new long[] {6, 4});
    }

    private CliRun reduce(String... more) {
        List<String> args = new ArrayList<>(List.of("reduce", "--input", gradient.toString(), "--dialect", "numpy"));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    /** Nothing but the gradient is left in the directory. */
    private void assertNothingWritten() throws Exception {
        try (var files = Files.list(dir)) {
            assertThat(files.map(path -> path.getFileName().toString())).containsExactly("grad.npy");
        }
    }

    @Test
    void writesANpyAndSaysWhatItDid() throws Exception {
        Path output = dir.resolve("bias.npy");
        CliRun run = reduce(
                "--input-shape", "[1,4]", "--shape", "[6,4]", "--output", output.toString(), "--partitions", "2");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err())
                .isEqualTo("reducing [6,4] int32 to [1,4] (rows-summed) in 2 tasks into npy " + output + "\n");
        assertThat(run.out()).startsWith("wrote " + output + ": [1,4] int32 (16 B) from 2 tasks (rows-summed), in ");
        // column c sums value(4r + c) over the six rows
        byte[] bytes = Files.readAllBytes(output);
        java.nio.ByteBuffer data =
                java.nio.ByteBuffer.wrap(bytes, bytes.length - 16, 16).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int c = 0; c < 4; c++) {
            long sum = 0;
            for (int r = 0; r < 6; r++) {
                sum += NpyFiles.value(4L * r + c);
            }
            assertThat(data.getInt()).isEqualTo(sum);
        }
    }

    /** A Parquet result of [2,3] rows nested as expand writes them; export reads the sums back. */
    @Test
    void writesNestedParquetRowsAndRefusesThemElsewhere() throws Exception {
        Path grad = NpyFiles.int32(dir.resolve("grad3.npy"), new long[] {4, 2, 3});
        Path output = dir.resolve("sums");
        CliRun run = CliRun.of(
                "reduce",
                "--input",
                grad.toString(),
                "--dialect",
                "numpy",
                "--input-shape",
                "[1,2,3]",
                "--shape",
                "[4,2,3]",
                "--output",
                output.toString(),
                "--format",
                "parquet",
                "--row-layout",
                "nested");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(dev.tensorbroadcast.job.pipeline.DatasetFiles.manifest(output)
                        .rowLayout())
                .isEqualTo("nested");
        Path npy = dir.resolve("sums.npy");
        CliRun export = CliRun.of("export", output.toString(), "--npy", npy.toString());
        assertThat(export.exitCode()).as(export.err()).isZero();
        byte[] bytes = Files.readAllBytes(npy);
        java.nio.ByteBuffer data =
                java.nio.ByteBuffer.wrap(bytes, bytes.length - 24, 24).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int e = 0; e < 6; e++) {
            long sum = 0;
            for (int r = 0; r < 4; r++) {
                sum += NpyFiles.value(6L * r + e);
            }
            assertThat(data.getInt()).as("element %d", e).isEqualTo(sum);
        }

        CliRun npyNested = reduce(
                "--input-shape",
                "[1,4]",
                "--shape",
                "[6,4]",
                "--output",
                dir.resolve("n.npy").toString(),
                "--row-layout",
                "nested");
        assertThat(npyNested.exitCode()).isEqualTo(2);
        assertThat(npyNested.err())
                .isEqualTo("Cannot use --row-layout nested with format npy: it writes one array;"
                        + " nested rows are for Parquet readers (Spark, DuckDB, polars); add --format parquet\n");
        assertThat(dir.resolve("n.npy")).doesNotExist();
    }

    @Test
    void dryRunShowsTheAxesTheRegimeAndTheBytesPerTask() throws Exception {
        CliRun run = reduce(
                "--input-shape",
                "[6,1]",
                "--shape",
                "[6,4]",
                "--output",
                dir.resolve("g.npy").toString(),
                "--partitions",
                "3",
                "--dry-run");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("""
                gradient: [6,4] (broadcast)
                input 0: [6,1] int32, summing axes [1] of the gradient (4 copies of each element)
                  rows-kept: 3 tasks, each reading at most 32 B of the gradient; each task writes its rows of the result
                  output: npy %s
                """.formatted(dir.resolve("g.npy")));
        CliRun json = reduce(
                "--input-shape",
                "[4]",
                "--shape",
                "[6,4]",
                "--output",
                dir.resolve("d").toString(),
                "--partitions",
                "20",
                "--dry-run",
                "--json");
        assertThat(json.json().get("results").get(0).get("regime").asText()).isEqualTo("rows-summed");
        assertThat(json.json().get("results").get(0).get("tasks").asLong()).isEqualTo(6);
        assertThat(json.json().get("results").get(0).get("summed_axes").toString())
                .isEqualTo("[0]");
        assertThat(json.json().get("results").get(0).get("format").asText()).isEqualTo("arrow");
        assertNothingWritten();
    }

    @Test
    void aGradientOfAnotherShapeIsOneLine() throws Exception {
        CliRun run = reduce(
                "--input-shape",
                "[1,4]",
                "--shape",
                "[5,4]",
                "--output",
                dir.resolve("g.npy").toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err())
                .isEqualTo("Cannot reduce a gradient of shape (6,4) [numpy]: the forward broadcast of"
                        + " (1,4) gives (5,4), and the gradient must have that shape\n");
        assertNothingWritten();
    }

    @Test
    void refusesWhatItCannotWriteBeforeSparkStarts() throws Exception {
        Path existing = Files.writeString(dir.resolve("mine.npy"), "keep me");
        CliRun exists = reduce("--input-shape", "[4]", "--shape", "[6,4]", "--output", existing.toString());
        assertThat(exists.exitCode()).isEqualTo(2);
        assertThat(exists.err())
                .isEqualTo("Cannot write .npy to '" + existing + "': the file exists; choose a new"
                        + " path, or pass --overwrite to replace it\n");
        assertThat(Files.readString(existing)).isEqualTo("keep me");
        Files.delete(existing);

        CliRun remote = reduce("--input-shape", "[4]", "--shape", "[6,4]", "--output", "hdfs://nn:8020/g.npy");
        assertThat(remote.err())
                .isEqualTo(
                        "Cannot write .npy to 'hdfs://nn:8020/g.npy': a .npy is written on the"
                                + " driver's local disk; give a local path, or a dataset directory with --format arrow or parquet\n");

        CliRun two = reduce(
                "--input-shape",
                "[6,1]",
                "--input-shape",
                "[4]",
                "--output",
                dir.resolve("g.npy").toString());
        assertThat(two.exitCode()).isEqualTo(2);
        assertThat(two.err())
                .isEqualTo("Cannot write 2 results to one .npy: give --input-index to reduce one input,"
                        + " or a dataset directory (--format arrow or parquet), which gets one result per input\n");

        CliRun index = reduce(
                "--input-shape",
                "[6,1]",
                "--input-shape",
                "[4]",
                "--input-index",
                "2",
                "--output",
                dir.resolve("g.npy").toString());
        assertThat(index.err()).isEqualTo("Cannot plan reduce: input index 2 is not in [0, 2)\n");

        CliRun discard = reduce(
                "--input-shape",
                "[4]",
                "--shape",
                "[6,4]",
                "--output",
                dir.resolve("d").toString(),
                "--format",
                "null");
        assertThat(discard.exitCode()).isEqualTo(2);
        assertThat(discard.err()).startsWith("Cannot use format 'null'");
        assertNothingWritten();
    }

    @Test
    void refusesABoolGradient() throws Exception {
        Files.delete(gradient);
        gradient = NpyFiles.write(dir.resolve("grad.npy"), "|b1", new long[] {2, 2}, new byte[] {1, 0, 1, 1});
        CliRun run = reduce(
                "--input-shape",
                "[2]",
                "--shape",
                "[2,2]",
                "--output",
                dir.resolve("g.npy").toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("Cannot reduce a bool gradient: a sum needs a numeric dtype (an integer,"
                        + " float or complex type)\n");
        assertNothingWritten();
    }

    @Test
    void aReduceDatasetIsVerifiedWithoutASource() throws Exception {
        Path output = dir.resolve("grads");
        assertThat(reduce("--input-shape", "[6,1]", "--shape", "[6,4]", "--output", output.toString())
                        .exitCode())
                .isZero();
        assertThat(CliRun.of("verify", output.toString()).exitCode()).isZero();
        CliRun against = CliRun.of("verify", output.toString(), "--source", gradient.toString());
        assertThat(against.exitCode()).isEqualTo(2);
        assertThat(against.err()).contains("it is the result of reduce, a sum of its gradient");
    }

    @Test
    void aSumOutsideItsDtypeIsOneLine() throws Exception {
        byte[] hundreds = new byte[8];
        java.util.Arrays.fill(hundreds, (byte) 100);
        Files.delete(gradient);
        gradient = NpyFiles.write(dir.resolve("grad.npy"), "|i1", new long[] {4, 2}, hundreds);
        CliRun run = reduce(
                "--input-shape",
                "[2]",
                "--shape",
                "[4,2]",
                "--output",
                dir.resolve("g.npy").toString(),
                "--partitions",
                "2");
        assertThat(run.exitCode()).isEqualTo(2);
        // the tasks find it, after the line that announced the job
        assertThat(run.err())
                .endsWith("in 2 tasks into npy " + dir.resolve("g.npy") + "\nCannot reduce a int8"
                        + " gradient: the sum at input element 0 is 400, outside int8's range [-128, 127]; reduce a copy in a"
                        + " wider type\n");
        assertNothingWritten();
    }
}
