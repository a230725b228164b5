package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** inspect, verify and export refuse a dataset location they cannot use as plan and expand do: exit 2, one line. */
class DatasetLocationTest {
    @TempDir
    Path tmp;

    private CliRun run(String command, String dir) {
        List<String> args = new ArrayList<>(List.of(command, dir));
        if (command.equals("export")) {
            args.addAll(List.of("--npy", tmp.resolve("x.npy").toString()));
        }
        return CliRun.of(args.toArray(String[]::new));
    }

    @ParameterizedTest
    @ValueSource(strings = {"inspect", "verify", "export"})
    void anEmptyLocationIsRefused(String command) {
        CliRun run = run(command, "");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err())
                .isEqualTo("Cannot use an empty dataset location: give a local path or a URI such as"
                        + " hdfs://namenode/data/x\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"inspect", "verify", "export"})
    void anUnknownSchemeIsRefused(String command) {
        CliRun run = run(command, "foo://x");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err())
                .isEqualTo(
                        "Cannot use dataset 'foo://x': no file system for it (No FileSystem for"
                                + " scheme \"foo\"); use a local path or a URI with a scheme this build serves: file, hdfs or s3a\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"inspect", "verify", "export"})
    void aMissingDirectoryIsRefused(String command) {
        Path missing = tmp.resolve("nothing");

        CliRun run = run(command, missing.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("Cannot " + command + " " + missing + ": no such directory\n");
    }
}
