package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.commit.FaultPoint;
import dev.tensorbroadcast.job.commit.OutputLock;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.localcluster.SparkHome;
import dev.tensorbroadcast.localcluster.junit.WithS3Server;
import dev.tensorbroadcast.localcluster.s3.S3Server;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line as a user starts it (a JVM of its own, its stdout and stderr in one log) against a real S3
 * server: the secret key given with {@code --conf} is nowhere in what a run writes or prints; wrong keys are one line
 * before Spark starts; a server that stops while the tasks upload is one line, exit 1, and no dataset.
 */
@WithS3Server
class S3CredentialsAndFaultsIT {
    @TempDir
    Path dir;

    private static List<String> arguments(S3Server s3, Map<String, String> settings, String... command) {
        List<String> args = new ArrayList<>(List.of(command));
        settings.forEach((key, value) -> args.addAll(List.of("--conf", key + "=" + value)));
        return args;
    }

    /** An expand of {@code source} (a [1,8] row) to [64,8] in two partitions at {@code key} of the bucket. */
    private static List<String> smallExpand(S3Server s3, Map<String, String> settings, Path source, String key) {
        return arguments(
                s3,
                settings,
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "64,8",
                "--partitions",
                "2",
                "--output",
                s3.uri(key));
    }

    /** The settings of a run whose server the test stops: a server that is gone stays gone, so few retries, short waits. */
    private static Map<String, String> toBeStopped(S3Server s3) {
        Map<String, String> settings = new java.util.LinkedHashMap<>(s3.sparkSettings());
        settings.put("spark.hadoop.fs.s3a.retry.limit", "1");
        settings.put("spark.hadoop.fs.s3a.attempts.maximum", "1");
        settings.put("spark.hadoop.fs.s3a.connection.establish.timeout", "2s");
        return settings;
    }

    private CliOutcome run(String name, List<String> args) throws Exception {
        return start(name, args).outcome();
    }

    /** Starts a run without waiting for it: runs that do not depend on each other go at once. */
    private Running start(String name, List<String> args) throws IOException {
        Path log = dir.resolve(name + ".log");
        return new Running(name, CliProcess.start(Map.of(), log, args.toArray(String[]::new)), log);
    }

    private record Running(String name, Process process, Path log) {
        CliOutcome outcome() throws Exception {
            assertThat(process.waitFor(240, TimeUnit.SECONDS))
                    .as("%s ended in time", name)
                    .isTrue();
            return new CliOutcome(process.exitValue(), CliProcess.read(log));
        }
    }

    private record CliOutcome(int exitCode, String output) {}

    private static void assertNowhere(String secret, Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                assertThat(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1))
                        .as("%s", file)
                        .doesNotContain(secret);
            }
        }
    }

    @Test
    void theSecretKeyIsInNothingARunWritesOrPrints(S3Server s3) throws Exception {
        Path source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 8});
        String output = s3.uri("secret-check");

        List<String> expandArgs = smallExpand(s3, s3.sparkSettings(), source, "secret-check");
        expandArgs.add("--json");
        CliOutcome expand = run("expand", expandArgs);
        CliOutcome inspect = run("inspect", arguments(s3, s3.sparkSettings(), "inspect", output, "--json"));
        CliOutcome verify = run(
                "verify", arguments(s3, s3.sparkSettings(), "verify", output, "--source", source.toString(), "--json"));
        CliOutcome refused = run(
                "refused",
                arguments(
                        s3,
                        s3.sparkSettings(),
                        "expand",
                        "--input",
                        source.toString(),
                        "--dialect",
                        "numpy",
                        "--shape",
                        "64,8",
                        "--output",
                        output,
                        "--json"));

        assertThat(expand.exitCode()).as(expand.output()).isZero();
        assertThat(inspect.exitCode()).as(inspect.output()).isZero();
        assertThat(verify.exitCode()).as(verify.output()).isZero();
        assertThat(refused.exitCode()).as(refused.output()).isEqualTo(2);
        assertThat(expand.output()).contains("\"rows\"");
        for (CliOutcome outcome : List.of(expand, inspect, verify, refused)) {
            assertThat(outcome.output()).doesNotContain(s3.secretKey());
        }
        // every object the run left on the server (the manifest among them), and every file of the test's own
        assertNowhere(s3.secretKey(), s3.bucketDirectory().resolve("secret-check"));
        assertNowhere(s3.secretKey(), dir);
    }

    @Test
    void wrongKeysAreOneLineBeforeSparkStarts(S3Server s3) throws Exception {
        Map<String, String> wrong = new java.util.LinkedHashMap<>(s3.sparkSettings());
        wrong.put("spark.hadoop.fs.s3a.secret.key", "not-the-secret-key");
        Path source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 8});

        CliOutcome run = run(
                "wrong",
                arguments(
                        s3,
                        wrong,
                        "expand",
                        "--input",
                        source.toString(),
                        "--dialect",
                        "numpy",
                        "--shape",
                        "64,8",
                        "--output",
                        s3.uri("wrong-keys")));

        assertThat(run.exitCode()).as(run.output()).isEqualTo(2);
        assertThat(run.output())
                .isEqualTo("Cannot write to '" + s3.uri("wrong-keys") + "': the S3 server refused"
                        + " access (403 Forbidden): wrong keys, or keys without access to this bucket; give the bucket's keys"
                        + " with --conf spark.hadoop.fs.s3a.access.key=... --conf spark.hadoop.fs.s3a.secret.key=..., or in"
                        + " AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY\n");
        assertThat(run.output()).doesNotContain("not-the-secret-key");
        assertThat(s3.bucketDirectory().resolve("wrong-keys")).doesNotExist();
    }

    /** A server of the test's own, stopped while the tasks wait to upload: the job fails in one line, exit 1. */
    @Test
    void aServerStoppedMidJobIsOneLineExitOneAndNoDataset() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 8});
        S3Server s3 = S3Server.start(SparkHome.locate(), dir.resolve("server"));
        Map<String, String> settings = toBeStopped(s3);
        settings.put("spark.tensorbroadcast.test.taskDelayMillis", "6000");
        Path log = dir.resolve("stopped.log");
        Process process;
        try {
            process = CliProcess.start(
                    Map.of(), log, smallExpand(s3, settings, source, "stopped").toArray(String[]::new));
            // the job has started once its lock is on the server: its tasks then wait 6 s before they upload
            Path lock = s3.bucketDirectory().resolve("stopped").resolve(OutputLock.FILE_NAME);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!Files.exists(lock) && System.nanoTime() < deadline && process.isAlive()) {
                Thread.sleep(100);
            }
            assertThat(lock).as(CliProcess.read(log)).exists();
            Thread.sleep(1000);
        } finally {
            s3.close();
        }
        assertThat(process.waitFor(240, TimeUnit.SECONDS)).isTrue();
        String output = CliProcess.read(log);

        assertThat(process.exitValue()).as(output).isEqualTo(1);
        List<String> lines =
                output.lines().filter(line -> !line.startsWith("writing ")).toList();
        assertThat(lines).as(output).hasSize(1);
        assertThat(lines.get(0))
                .startsWith("Cannot write '" + s3.uri("stopped") + "': ")
                .contains("the S3 endpoint does not answer");
        Path written = s3.bucketDirectory().resolve("stopped");
        List<String> visible = Files.exists(written)
                ? Files.list(written)
                        .filter(Files::isRegularFile)
                        .map(path -> path.getFileName().toString())
                        .toList()
                : List.of();
        assertThat(visible)
                .noneMatch(
                        name -> name.startsWith("part-") || name.equals("_SUCCESS") || name.equals("_manifest.json"));
    }

    /**
     * The server stopped once the commit is done ({@code commit.done}), before the run removes its lock: the run cannot end as done
     * with its lock left (inspect calls that output incomplete), so it is one line naming the lock, exit 1; every
     * file of the dataset is in place, and once the server is back, inspect names the lock as the one thing wrong.
     */
    @Test
    void aServerStoppedAfterSuccessIsOneLineNamingTheLockLeft() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 8});
        Path data = dir.resolve("data");
        S3Server s3 = S3Server.start(SparkHome.locate(), dir.resolve("server"), data);
        Path log = dir.resolve("after-success.log");
        String point = FaultPoint.COMMIT_DONE.pointName();
        List<String> args = smallExpand(s3, toBeStopped(s3), source, "after-success");
        args.add("-D" + FaultPoint.PAUSE_AT + "=" + point);
        args.add("-D" + FaultPoint.PAUSE_MILLIS + "=3000");
        Process process;
        try {
            process = CliProcess.start(Map.of(), log, args.toArray(String[]::new));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
            String paused = "tensor-broadcast test: paused at " + point;
            while (!CliProcess.read(log).contains(paused) && process.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(CliProcess.read(log)).contains(paused);
        } finally {
            s3.close();
        }
        assertThat(process.waitFor(240, TimeUnit.SECONDS)).isTrue();
        String output = CliProcess.read(log);

        assertThat(process.exitValue()).as(output).isEqualTo(1);
        List<String> lines = output.lines()
                .filter(line -> !line.startsWith("writing ") && !line.startsWith("tensor-broadcast test:"))
                .toList();
        assertThat(lines).as(output).hasSize(1);
        String lock = s3.uri("after-success") + "/" + OutputLock.FILE_NAME;
        assertThat(lines.get(0))
                .startsWith("Cannot remove the lock of '" + s3.uri("after-success") + "': ")
                .contains("the S3 endpoint does not answer")
                .endsWith("; the job wrote what it had to, but " + lock + " is left, and inspect calls the output"
                        + " incomplete while it is there: delete it (a later run on this host takes it over, as its"
                        + " process is gone)");
        Path objects = s3.bucketDirectory().resolve("after-success");
        try (Stream<Path> files = Files.list(objects)) {
            assertThat(files.map(file -> file.getFileName().toString()).sorted())
                    .containsExactly(
                            "_SUCCESS", "_manifest.json", OutputLock.FILE_NAME, "part-00000.arrow", "part-00001.arrow");
        }
        try (S3Server again = S3Server.start(SparkHome.locate(), dir.resolve("server-again"), data)) {
            CliOutcome inspect = run(
                    "inspect-after-success",
                    arguments(again, again.sparkSettings(), "inspect", again.uri("after-success")));
            assertThat(inspect.exitCode()).as(inspect.output()).isEqualTo(1);
            assertThat(inspect.output()).contains(OutputLock.FILE_NAME + " is there");
        }
    }

    /**
     * A bucket the keys may only read: S3Proxy's read-only mode over a copy of a dataset the class's server wrote.
     * Overwriting it, or writing an expand or a reduce next to it, is one line, exit 2, and leaves every object as it
     * was and no new one; reading it (verify, inspect, and the dataset as an expand's input) works as on any bucket.
     */
    @Test
    void aReadOnlyBucketIsOneLineAndLeavesTheDatasetAsItWas(S3Server s3) throws Exception {
        Path source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 8});
        CliOutcome written = run(
                "written",
                arguments(
                        s3,
                        s3.sparkSettings(),
                        "expand",
                        "--input",
                        source.toString(),
                        "--dialect",
                        "numpy",
                        "--shape",
                        "64,8",
                        "--partitions",
                        "2",
                        "--output",
                        s3.uri("read-only")));
        assertThat(written.exitCode()).as(written.output()).isZero();
        try (S3Server readOnly = S3Server.start(SparkHome.locate(), dir.resolve("read-only-server"), true)) {
            Path dataset = readOnly.bucketDirectory().resolve("read-only");
            copyTree(s3.bucketDirectory().resolve("read-only"), dataset);
            Map<String, String> before = OutputIsInputTest.checksums(dataset);

            // six runs that neither change the bucket nor depend on each other: started together, waited for in turn
            Running refusedRun = start(
                    "refused-read-only",
                    arguments(
                            readOnly,
                            readOnly.sparkSettings(),
                            "expand",
                            "--input",
                            source.toString(),
                            "--dialect",
                            "numpy",
                            "--shape",
                            "32,8",
                            "--partitions",
                            "2",
                            "--overwrite",
                            "--output",
                            readOnly.uri("read-only")));
            Running freshRun = start(
                    "fresh-read-only",
                    arguments(
                            readOnly,
                            readOnly.sparkSettings(),
                            "expand",
                            "--input",
                            source.toString(),
                            "--dialect",
                            "numpy",
                            "--shape",
                            "32,8",
                            "--output",
                            readOnly.uri("fresh")));
            Path grad = NpyFiles.int32(dir.resolve("grad.npy"), new long[] {4, 2, 3});
            Running reduceRun = start(
                    "reduce-read-only",
                    arguments(
                            readOnly,
                            readOnly.sparkSettings(),
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
                            readOnly.uri("reduced")));
            Running verifyRun = start(
                    "verify-read-only",
                    arguments(
                            readOnly,
                            readOnly.sparkSettings(),
                            "verify",
                            readOnly.uri("read-only"),
                            "--source",
                            source.toString()));
            Running inspectRun = start(
                    "inspect-read-only",
                    arguments(readOnly, readOnly.sparkSettings(), "inspect", readOnly.uri("read-only"), "--json"));
            Path local = dir.resolve("from-read-only");
            Running fromReadOnlyRun = start(
                    "expand-from-read-only",
                    arguments(
                            readOnly,
                            readOnly.sparkSettings(),
                            "expand",
                            "--input",
                            readOnly.uri("read-only"),
                            "--dialect",
                            "numpy",
                            "--shape",
                            "2,64,8",
                            "--output",
                            local.toString(),
                            "--json"));
            CliOutcome refused = refusedRun.outcome();
            CliOutcome fresh = freshRun.outcome();
            CliOutcome reduce = reduceRun.outcome();
            CliOutcome verify = verifyRun.outcome();
            CliOutcome inspect = inspectRun.outcome();
            CliOutcome fromReadOnly = fromReadOnlyRun.outcome();

            String reason = "the S3 server answered 501 NotImplemented: it serves this bucket read-only (S3Proxy's"
                    + " answer to every write then), or does not implement a request S3A sent (S3Proxy's to bulk"
                    + " deletes unless spark.hadoop.fs.s3a.multiobjectdelete.enable=false); write to a bucket these"
                    + " keys may write to";
            for (CliOutcome outcome : List.of(refused, fresh, reduce)) {
                assertThat(outcome.exitCode()).as(outcome.output()).isEqualTo(2);
            }
            // the line before, on stdout, says what the run was about to write
            assertThat(refused.output().lines().filter(line -> !line.startsWith("writing ")))
                    .containsExactly("Cannot write to '" + readOnly.uri("read-only") + "': cannot lock it: " + reason);
            assertThat(fresh.output().lines().filter(line -> !line.startsWith("writing ")))
                    .containsExactly("Cannot write to '" + readOnly.uri("fresh") + "': cannot lock it: " + reason);
            assertThat(reduce.output().lines().filter(line -> !line.startsWith("writing ")))
                    .containsExactly("Cannot write to '" + readOnly.uri("reduced") + "': cannot lock it: " + reason);
            assertThat(OutputIsInputTest.checksums(dataset)).isEqualTo(before);
            assertThat(readOnly.bucketDirectory().resolve("fresh")).doesNotExist();
            assertThat(readOnly.bucketDirectory().resolve("reduced")).doesNotExist();
            assertThat(verify.exitCode()).as(verify.output()).isZero();
            assertThat(inspect.exitCode()).as(inspect.output()).isZero();
            assertThat(inspect.output()).contains("\"complete\":true", "\"rows\":64", "\"stray\":[]");
            assertThat(fromReadOnly.exitCode()).as(fromReadOnly.output()).isZero();
            assertThat(fromReadOnly.output()).contains("\"shape\":[2,64,8]", "\"rows\":2");
            assertThat(local.resolve("_SUCCESS")).exists();
        }
    }

    /**
     * A read S3A's reader fails (a manifest object without the ETag S3Proxy keeps in the file's attributes, as when
     * a file is put in its directory by hand): one line, without the reader's ERROR telemetry lines.
     */
    @Test
    void aFailedReadIsOneLineWithoutTheReadersTelemetry(S3Server s3) throws Exception {
        Path source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 8});
        CliOutcome written = run(
                "written-no-etag",
                arguments(
                        s3,
                        s3.sparkSettings(),
                        "expand",
                        "--input",
                        source.toString(),
                        "--dialect",
                        "numpy",
                        "--shape",
                        "16,8",
                        "--output",
                        s3.uri("no-etag")));
        assertThat(written.exitCode()).as(written.output()).isZero();
        Path manifest = s3.bucketDirectory().resolve("no-etag").resolve("_manifest.json");
        byte[] bytes = Files.readAllBytes(manifest);
        Files.delete(manifest);
        Files.write(manifest, bytes);

        CliOutcome refused = run(
                "refused-no-etag",
                arguments(
                        s3,
                        s3.sparkSettings(),
                        "expand",
                        "--input",
                        source.toString(),
                        "--dialect",
                        "numpy",
                        "--shape",
                        "16,8",
                        "--overwrite",
                        "--output",
                        s3.uri("no-etag")));

        assertThat(refused.exitCode()).as(refused.output()).isNotZero();
        assertThat(refused.output().lines().toList()).as(refused.output()).hasSize(1);
        assertThat(refused.output()).startsWith("Cannot overwrite '" + s3.uri("no-etag") + "': ");
        assertThat(Files.readAllBytes(manifest)).isEqualTo(bytes);
    }

    /** A copy with the objects' user attributes, where S3Proxy's filesystem backend keeps their ETags. */
    private static void copyTree(Path from, Path to) throws Exception {
        Files.createDirectories(to.getParent());
        Process copy = new ProcessBuilder("cp", "-a", from.toString(), to.toString())
                .inheritIO()
                .start();
        assertThat(copy.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(copy.exitValue()).isZero();
    }
}
