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

    @Test
    void keepsAFileOfTheUsersAtTheSourcePath() throws Exception {
        Path mine = Files.writeString(dir.resolve("tb.npy"), "keep me");
        CliRun run = CliRun.of("demo", "--output", dir.resolve("tb").toString(), "--rows", "8");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("Cannot write the demo source '" + mine + "': another file is there; give"
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
        assertThat(run.err()).contains("Cannot overwrite '" + theirs + "': it is neither empty nor a tensor-broadcast"
                + " dataset");
        assertThat(Files.exists(dir.resolve("theirs.npy"))).isFalse();
        assertThat(Files.readString(theirs.resolve("notes.txt"))).isEqualTo("mine");
    }

    @Test
    void saysWhenTheDirectoryIsMissing() {
        Path missing = dir.resolve("no").resolve("x");
        CliRun run = CliRun.of("demo", "--output", missing.toString(), "--rows", "8");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("Cannot write the demo source '" + missing + ".npy': its directory does not"
                + " exist\n");
    }
}
