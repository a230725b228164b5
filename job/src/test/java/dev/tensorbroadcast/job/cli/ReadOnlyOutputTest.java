package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.pipeline.NpyFiles;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An output under a directory nothing can be written to, here a read-only tmpfs mounted for the test (root is
 * needed; skipped with the reason otherwise), is refused before Spark starts: one line, exit 2.
 */
class ReadOnlyOutputTest {
    @TempDir
    Path dir;

    private TmpfsMount readOnly;

    @BeforeEach
    void mountReadOnly() throws Exception {
        readOnly = TmpfsMount.at(dir.resolve("ro"), "ro,size=1m");
    }

    @AfterEach
    void unmount() throws Exception {
        readOnly.close();
    }

    @Test
    void anUnwritableDirectoryIsRefusedBeforeSparkStarts() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 8});
        Path output = readOnly.path().resolve("out");
        CliRun run = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "4,8",
                "--output",
                output.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("Cannot write to '" + output + "': directory " + readOnly.path() + " is not writable"
                        + " (its permissions, or a read-only file system); choose a directory you can write\n");
    }

    /** /proc says root may write it, then refuses every new file: the line says why, not that it is full. */
    @Test
    void aFileSystemThatHoldsNoFilesIsRefusedForWhatItIs() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 8});
        CliRun run = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "4,8",
                "--output",
                "/proc/tensor-broadcast-out");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("Cannot write to '/proc/tensor-broadcast-out': directory /proc is on a proc"
                        + " file system, which holds no files; choose a directory on a disk\n");
    }
}
