package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tensorbroadcast.job.commit.CommitRecord;
import dev.tensorbroadcast.job.commit.FaultPoint;
import dev.tensorbroadcast.job.commit.OutputLock;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.localcluster.junit.WithS3Server;
import dev.tensorbroadcast.localcluster.s3.S3Server;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code expand --overwrite} of an {@code s3a://} Parquet dataset of 8 partitions, stopped at each named point of
 * its commit ({@link FaultPoint}, where the command line pauses for the test's signal): after a SIGKILL the old
 * dataset or the new one is complete and {@code verify} says so, or {@code inspect} names the one command that makes
 * it so; a rerun with {@code --overwrite} then succeeds and leaves nothing of ours behind. After a SIGTERM the commit
 * finishes: the new dataset is complete. Against S3Proxy, whose objects are files the test can read.
 *
 * <p>The run that is stopped, and the rerun halted after it finished the stopped commit, are command-line JVMs of
 * their own: a signal and a halt end a process. The runs that read or write after them ({@code verify}, {@code
 * inspect}, the rerun that succeeds) and the old dataset's first write run in this JVM: what they check is their exit
 * code and what they print, not a process's, and a command-line JVM costs seconds of the shared cores. Each case still
 * starts one or two JVMs, so {@code mvn verify} runs the points where the commit record matters most (the record
 * written, the files committed); {@code -Dtensorbroadcast.commitWindow.all=true} runs every point, as bench/soak.sh
 * does.
 */
@WithS3Server
class S3OverwriteCommitIT {
    private static final boolean EVERY_POINT = Boolean.getBoolean("tensorbroadcast.commitWindow.all");
    private static final List<String> SLICE = List.of("commit.recorded", "commit.files-committed");

    private static final String OLD_SHAPE = "64,8";
    private static final String NEW_SHAPE = "96,8";
    private static final String RERUN_SHAPE = "128,8";

    /** Where the old dataset is written once, to be copied (objects and their ETags) for every case. */
    private static final String TEMPLATE = "commit-template";

    @TempDir
    static Path shared;

    @TempDir
    Path dir;

    private static Path source;
    private final List<Process> started = new ArrayList<>();

    @BeforeAll
    static void oldDataset(S3Server s3) throws Exception {
        source = NpyFiles.int32(shared.resolve("row.npy"), new long[] {1, 8});
        Outcome template = inThisJvm(s3, expand(OLD_SHAPE, "8", s3.uri(TEMPLATE)));
        assertThat(template.exitCode()).as(template.output()).isZero();
    }

    /** The old dataset at {@code key}: a copy of the template's objects, with the attributes holding their ETags. */
    private static Path oldAt(S3Server s3, String key) throws Exception {
        Path objects = s3.bucketDirectory().resolve(key);
        Process copy = new ProcessBuilder(
                        "cp", "-a", s3.bucketDirectory().resolve(TEMPLATE).toString(), objects.toString())
                .inheritIO()
                .start();
        assertThat(copy.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(copy.exitValue()).isZero();
        return objects;
    }

    @AfterEach
    void stopWhatWasStarted() throws InterruptedException {
        for (Process process : started) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /**
     * A SIGKILL at {@code point}; {@code left} is what the output then is: the {@code old} dataset, the {@code new}
     * one, or a {@code stopped} commit that {@code inspect} names the command for. Where {@code rollForward} says
     * which, the rerun that follows is halted right after its tasks: it finished the stopped commit before them, and
     * the output is then that dataset, complete.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "commit.start, old, -",
        "commit.recorded, old, new",
        "commit.markers-taken, stopped, -",
        "commit.files-committed, stopped, new",
        "commit.cleaned, stopped, -",
        "commit.manifest-written, stopped, -",
        "commit.success-written, new, -"
    })
    void aSigkillInTheCommitLeavesOneDatasetOrOneCommand(String point, String left, String rollForward, S3Server s3)
            throws Exception {
        assumeTrue(EVERY_POINT || SLICE.contains(point), "every point with -Dtensorbroadcast.commitWindow.all=true");
        String output = s3.uri("kill-" + point);
        Path objects = oldAt(s3, "kill-" + point);
        Map<String, String> oldFiles = datasetFiles(objects);

        Outcome killed = stoppedAt(s3, "killed", point, "KILL", expand(NEW_SHAPE, "6", output, "--overwrite"));
        assertThat(killed.exitCode()).as(killed.output()).isEqualTo(137);

        Outcome verify = inThisJvm(s3, List.of("verify", output));
        Outcome inspect = inThisJvm(s3, List.of("inspect", output, "--json"));
        switch (left) {
            case "old" -> {
                assertThat(verify.exitCode()).as(verify.output()).isZero();
                assertThat(inspect.output()).contains("\"shape\":[" + OLD_SHAPE + "]");
                assertThat(datasetFiles(objects)).isEqualTo(oldFiles);
            }
            case "new" -> {
                assertThat(verify.exitCode()).as(verify.output()).isZero();
                assertThat(inspect.output()).contains("\"shape\":[" + NEW_SHAPE + "]");
            }
            default -> {
                assertThat(verify.exitCode()).as(verify.output()).isEqualTo(1);
                assertThat(inspect.exitCode()).as(inspect.output()).isEqualTo(1);
                assertThat(inspect.output())
                        .as(inspect.output())
                        .contains(CommitRecord.FILE_NAME
                                + " is there: a job was stopped while it committed the dataset that replaces this one, whose"
                                + " files it had uploaded; rerun with --overwrite, which finishes that commit before it"
                                + " writes");
            }
        }

        if (!rollForward.equals("-")) {
            // the next run finishes the stopped commit before its tasks: halted after them, it changed nothing else
            Outcome halted = run(
                    s3,
                    "halted",
                    withProperty(
                            FaultPoint.HALT_AT,
                            FaultPoint.COMMIT_START.pointName(),
                            expand(RERUN_SHAPE, "4", output, "--overwrite")));
            assertThat(halted.exitCode()).as(halted.output()).isEqualTo(137);
            Outcome between = inThisJvm(s3, List.of("verify", output));
            Outcome betweenInspect = inThisJvm(s3, List.of("inspect", output, "--json"));
            assertThat(between.exitCode()).as(between.output()).isZero();
            assertThat(betweenInspect.output())
                    .contains("\"shape\":[" + (rollForward.equals("old") ? OLD_SHAPE : NEW_SHAPE) + "]");
            assertThat(objects.resolve(CommitRecord.FILE_NAME)).doesNotExist();
        }

        Outcome rerun = inThisJvm(s3, expand(RERUN_SHAPE, "4", output, "--overwrite"));
        assertThat(rerun.exitCode()).as(rerun.output()).isZero();
        Outcome last = inThisJvm(s3, List.of("inspect", output, "--json"));
        assertThat(last.exitCode()).as(last.output()).isZero();
        assertThat(last.output()).contains("\"shape\":[" + RERUN_SHAPE + "]", "\"stray\":[]");
        assertThat(names(objects))
                .containsExactlyInAnyOrder(
                        "_SUCCESS",
                        "_manifest.json",
                        "part-00000.parquet",
                        "part-00001.parquet",
                        "part-00002.parquet",
                        "part-00003.parquet");
    }

    /** A SIGTERM at {@code point}: the commit finishes before the JVM ends, with the signal's exit code. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"commit.markers-taken", "commit.files-committed"})
    void aSigtermInTheCommitLetsItFinish(String point, S3Server s3) throws Exception {
        assumeTrue(EVERY_POINT || SLICE.contains(point), "every point with -Dtensorbroadcast.commitWindow.all=true");
        String output = s3.uri("term-" + point);
        Path objects = oldAt(s3, "term-" + point);

        Outcome stopped = stoppedAt(s3, "stopped", point, "TERM", expand(NEW_SHAPE, "6", output, "--overwrite"));

        assertThat(stopped.exitCode()).as(stopped.output()).isEqualTo(143);
        assertThat(stopped.output())
                .doesNotContain("internal error")
                .doesNotContain("Exception")
                .contains("interrupted: the signal came while the job committed, and the commit finished first;"
                        + " what it wrote is complete");
        Outcome verify = inThisJvm(s3, List.of("verify", output));
        assertThat(verify.exitCode()).as(verify.output()).isZero();
        Outcome inspect = inThisJvm(s3, List.of("inspect", output, "--json"));
        assertThat(inspect.exitCode()).as(inspect.output()).isZero();
        assertThat(inspect.output()).contains("\"shape\":[" + NEW_SHAPE + "]", "\"stray\":[]");
        assertThat(names(objects)).doesNotContain(CommitRecord.FILE_NAME, OutputLock.FILE_NAME);
    }

    private static List<String> expand(String shape, String partitions, String output, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                shape,
                "--partitions",
                partitions,
                "--format",
                "parquet",
                "--output",
                output));
        args.addAll(List.of(more));
        return args;
    }

    private static List<String> withProperty(String name, String value, List<String> args) {
        List<String> with = new ArrayList<>(args);
        with.add("-D" + name + "=" + value);
        return with;
    }

    /** Runs {@code args} paused at {@code point}, sends {@code signal} when it is there, and waits for the end. */
    private Outcome stoppedAt(S3Server s3, String name, String point, String signal, List<String> args)
            throws Exception {
        Path log = dir.resolve(name + ".log");
        Process process = start(s3, log, withProperty(FaultPoint.PAUSE_AT, point, args));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        String paused = "tensor-broadcast test: paused at " + point;
        while (!CliProcess.read(log).contains(paused) && process.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(CliProcess.read(log)).contains(paused);
        new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                .start()
                .waitFor(10, TimeUnit.SECONDS);
        assertThat(process.waitFor(120, TimeUnit.SECONDS))
                .as(CliProcess.read(log))
                .isTrue();
        return new Outcome(process.exitValue(), CliProcess.read(log));
    }

    /** A run in a command-line JVM of its own, to its end: one a halt ends. */
    private Outcome run(S3Server s3, String name, List<String> args) throws Exception {
        Path log = dir.resolve(name + ".log");
        Process process = start(s3, log, args);
        assertThat(process.waitFor(240, TimeUnit.SECONDS))
                .as("%s ended in time", name)
                .isTrue();
        return new Outcome(process.exitValue(), CliProcess.read(log));
    }

    private Process start(S3Server s3, Path log, List<String> args) throws IOException {
        Process process = CliProcess.start(Map.of(), log, withSettings(s3, args));
        started.add(process);
        return process;
    }

    /** A run in this JVM, as the command line's main runs it; its output is what it printed, stdout then stderr. */
    private static Outcome inThisJvm(S3Server s3, List<String> args) {
        CliRun run = CliRun.of(withSettings(s3, args));
        return new Outcome(run.exitCode(), run.out() + run.err());
    }

    private static String[] withSettings(S3Server s3, List<String> args) {
        List<String> all = new ArrayList<>(args);
        s3.sparkSettings().forEach((key, value) -> all.addAll(List.of("--conf", key + "=" + value)));
        return all.toArray(String[]::new);
    }

    private record Outcome(int exitCode, String output) {}

    /** The dataset's files on the server (part files and markers), with their checksums. */
    private static Map<String, String> datasetFiles(Path objects) throws IOException {
        Map<String, String> files = new TreeMap<>(OutputIsInputTest.checksums(objects));
        files.keySet()
                .removeIf(name ->
                        !name.startsWith("part-") && !name.startsWith("_SUCCESS") && !name.equals("_manifest.json"));
        return files;
    }

    /** The regular files directly in {@code objects}. */
    private static List<String> names(Path objects) throws IOException {
        try (Stream<Path> entries = Files.list(objects)) {
            return entries.filter(Files::isRegularFile)
                    .map(path -> path.getFileName().toString())
                    .toList();
        }
    }
}
