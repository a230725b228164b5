package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.commit.OutputDirectory;
import dev.tensorbroadcast.job.commit.OutputLock;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Two writers on one output: the second is refused in one line, and nothing of the first's is touched. */
class ConcurrentWriterTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    Path dir;

    private Path source;
    private Path output;

    @BeforeEach
    void writeSource() throws Exception {
        source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 8});
        output = dir.resolve("out");
    }

    private CliRun expand(String... more) {
        List<String> args = new java.util.ArrayList<>(List.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "64,8",
                "--partitions",
                "4",
                "--output",
                output.toString()));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    @Test
    void aSecondWriterIsRefusedWhileTheFirstHoldsTheOutput() throws Exception {
        assertThat(expand().exitCode()).isZero();
        List<String> written;
        try (var files = Files.list(output)) {
            written = files.map(path -> path.getFileName().toString()).sorted().toList();
        }
        assertThat(written).doesNotContain(OutputLock.FILE_NAME);
        OutputDirectory first = OutputDirectory.check(output.toString(), true, new Configuration());
        try (OutputLock held = first.lock()) {
            CliRun second = expand("--overwrite");
            assertThat(second.exitCode()).isEqualTo(2);
            // the refusal is the only line: what would be written is said only once the output is taken
            List<String> lines = second.err().lines().toList();
            assertThat(lines).hasSize(1);
            assertThat(lines.get(0))
                    .startsWith("Cannot write to '" + output + "': another tensor-broadcast job is"
                            + " writing it (process " + ProcessHandle.current().pid() + " on host ")
                    .endsWith("); wait for it to finish, or if that job is gone, delete file:" + output + "/"
                            + OutputLock.FILE_NAME + " and rerun with --overwrite");
            try (var files = Files.list(output)) {
                assertThat(files.map(path -> path.getFileName().toString())
                                .filter(name -> !name.equals(OutputLock.FILE_NAME))
                                .sorted()
                                .toList())
                        .isEqualTo(written);
            }
            CliRun inspect = CliRun.of("inspect", output.toString());
            assertThat(inspect.out()).contains(OutputLock.FILE_NAME + " is there: a job is writing the dataset");
        }
        assertThat(output.resolve(OutputLock.FILE_NAME)).doesNotExist();
        assertThat(CliRun.of("verify", output.toString()).exitCode()).isZero();
    }

    @Test
    void twoJobsStartedTogetherLeaveOneCompleteDataset() throws Exception {
        CompletableFuture<CliRun> one = CompletableFuture.supplyAsync(() -> expand("--overwrite"));
        CompletableFuture<CliRun> two = CompletableFuture.supplyAsync(() -> expand("--overwrite"));
        List<CliRun> runs = List.of(one.get(), two.get());
        // both may also succeed one after the other; never both at once into the same files
        assertThat(runs).extracting(CliRun::exitCode).containsAnyOf(0).allMatch(code -> code == 0 || code == 2);
        for (CliRun run : runs) {
            if (run.exitCode() == 2) {
                assertThat(run.err()).contains("another tensor-broadcast job is writing it");
            }
        }
        assertThat(CliRun.of("verify", output.toString()).exitCode()).isZero();
        assertThat(output.resolve(OutputLock.FILE_NAME)).doesNotExist();
    }

    @Test
    void aLockLeftByAProcessThatIsGoneIsTakenOver() throws Exception {
        Files.createDirectories(output);
        // a pid far above any this machine hands out, on this host
        String host = java.net.InetAddress.getLocalHost().getHostName();
        Files.writeString(
                output.resolve(OutputLock.FILE_NAME),
                "process 999999999 on host " + host + " since 2026-01-01T00:00:00Z\n");
        CliRun run = expand("--overwrite");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(output.resolve(OutputLock.FILE_NAME)).doesNotExist();

        Files.writeString(
                output.resolve(OutputLock.FILE_NAME),
                "process 1 on host elsewhere.example since" + " 2026-01-01T00:00:00Z\n");
        CliRun refused = expand("--overwrite");
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.err()).contains("(process 1 on host elsewhere.example since 2026-01-01T00:00:00Z)");
    }
}
