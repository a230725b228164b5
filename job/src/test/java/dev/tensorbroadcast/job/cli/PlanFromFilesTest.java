package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tensorbroadcast.job.sink.NpyWriter;
import dev.tensorbroadcast.planner.Shape;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code plan --input FILE}: the shape and dtype come from the file itself. */
class PlanFromFilesTest {
    @TempDir
    Path dir;

    /** A C-order .npy of zeros, with {@code dataBytes} of data whatever the header says. */
    private Path npy(String name, String descr, Shape shape, int dataBytes) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.write(NpyWriter.header(descr, shape));
        bytes.write(new byte[dataBytes]);
        Path file = dir.resolve(name);
        Files.write(file, bytes.toByteArray());
        return file;
    }

    @Test
    void takesShapeAndDtypeFromTheFiles() throws Exception {
        Path column = npy("column.npy", "<i2", Shape.of(3, 1), 6);
        Path row = npy("row.npy", "<i2", Shape.of(5), 10);
        CliRun run = CliRun.of(
                "plan", "--dialect", "numpy", "--input", column.toString(), "--input", row.toString(), "--json");
        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(run.out());
        assertThat(json.get("dtype").asText()).isEqualTo("int16");
        assertThat(json.get("shape").toString()).isEqualTo("[3,5]");
        assertThat(json.get("input_shapes").toString()).isEqualTo("[[3,1],[5]]");
        assertThat(json.get("bytes").asLong()).isEqualTo(30);
    }

    @Test
    void refusesBothKindsOfInputOrNeither() throws Exception {
        Path file = npy("x.npy", "<f4", Shape.of(3), 12);
        CliRun both = CliRun.of(
                "plan", "--dialect", "numpy", "--input", file.toString(), "--input-shape", "3", "--shape", "2,3");
        assertThat(both.exitCode()).isEqualTo(2);
        assertThat(both.err())
                .isEqualTo("Cannot use --input-shape with --input: give the shapes, or the files to read"
                        + " them from; see 'tensor-broadcast plan --help'\n");
        CliRun neither = CliRun.of("plan", "--dialect", "numpy", "--shape", "2,3");
        assertThat(neither.exitCode()).isEqualTo(2);
        assertThat(neither.err())
                .isEqualTo("Missing input: give --input-shape (a shape) or --input (a .npy or Arrow"
                        + " IPC file); see 'tensor-broadcast plan --help'\n");
    }

    @Test
    void namesAMissingOrBrokenFile() throws Exception {
        CliRun missing = CliRun.of(
                "plan",
                "--dialect",
                "numpy",
                "--input",
                dir.resolve("none.npy").toString(),
                "--shape",
                "2,3",
                "--json");
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.out())
                .isEqualTo("{\"error\":{\"kind\":\"input\",\"message\":\"Cannot read input '"
                        + dir.resolve("none.npy")
                        + "': no such file or directory; give a .npy, Arrow IPC or Parquet file,"
                        + " or a directory of Arrow IPC or Parquet files\"}}\n");
        Path truncated = npy("short.npy", "<f4", Shape.of(1000), 12);
        CliRun broken = CliRun.of("plan", "--dialect", "numpy", "--input", truncated.toString(), "--shape", "2,1000");
        assertThat(broken.exitCode()).isEqualTo(2);
        assertThat(broken.err())
                .isEqualTo("Cannot read " + truncated + ": the header declares 1000 float32 elements"
                        + " (4000 bytes) but the file has 12 bytes of data\n");
        assertThat(broken.err().lines()).hasSize(1);
    }
}
