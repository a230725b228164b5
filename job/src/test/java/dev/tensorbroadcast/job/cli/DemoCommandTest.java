package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** demo never replaces a file that is not its own, and leaves nothing behind when it is refused. */
class DemoCommandTest {
    @TempDir
    Path dir;

    /** A demo says where it wrote and how to read it; the top-level help promises that (issue 43). */
    @Test
    void saysWhereItWroteAndHowToReadIt() throws Exception {
        Path output = dir.resolve("tb");
        CliRun run = CliRun.of("demo", "--output", output.toString(), "--rows", "8");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err())
                .startsWith("source " + output + ".npy: [1,4096] float32, 0.0 to 4095.0\n")
                .endsWith("\nto read it: pyarrow.dataset.dataset('" + output + "', format='arrow'), or"
                        + " polars.scan_ipc('" + output + "/*.arrow') (the directory also holds _manifest.json and"
                        + " _SUCCESS)\n");
        assertThat(run.out()).startsWith("wrote file:" + output + ": 8 rows of [4096] float32 in 1 arrow file: ");
    }

    /**
     * Its help says what the README says: the embedded default runs without Spark; and the default output is under
     * the temporary directory, not a gigabyte in the working directory (often a clone).
     */
    @Test
    void itsHelpSaysWhereAndHowItRuns() {
        CliRun help = CliRun.of("demo", "--help");

        // picocli wraps the lines at 80 columns
        assertThat(help.out().replaceAll("\\s+", " "))
                .contains("(the embedded default, without Spark)")
                .doesNotContain("Spark;")
                .contains("then says how to read it.")
                .contains("(default: " + Path.of(System.getProperty("java.io.tmpdir"), "tensor-broadcast-demo")
                        + ", under the temporary directory)");
    }

    @Test
    void keepsAFileOfTheUsersAtTheSourcePath() throws Exception {
        Path mine = Files.writeString(dir.resolve("tb.npy"), "keep me");
        CliRun run = CliRun.of("demo", "--output", dir.resolve("tb").toString(), "--rows", "8");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("Cannot write the demo source '" + mine + "': another file is there; give"
                        + " --output a path whose .npy is free\n");
        assertThat(Files.readString(mine)).isEqualTo("keep me");
        assertThat(Files.exists(dir.resolve("tb"))).isFalse();
    }

    @Test
    void removesItsSourceWhenTheRunIsRefused() throws Exception {
        Path theirs = Files.createDirectories(dir.resolve("theirs"));
        Files.writeString(theirs.resolve("notes.txt"), "mine");
        CliRun run = CliRun.of("demo", "--output", theirs.toString(), "--rows", "8");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .contains("Cannot overwrite '" + theirs + "': it is neither empty nor a tensor-broadcast" + " dataset");
        assertThat(Files.exists(dir.resolve("theirs.npy"))).isFalse();
        assertThat(Files.readString(theirs.resolve("notes.txt"))).isEqualTo("mine");
    }

    @Test
    void saysWhenTheDirectoryIsMissing() {
        Path missing = dir.resolve("no").resolve("x");
        CliRun run = CliRun.of("demo", "--output", missing.toString(), "--rows", "8");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("Cannot write the demo source '" + missing + ".npy': its directory does not" + " exist\n");
    }
}
