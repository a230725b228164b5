package dev.tensorbroadcast.job.store.s3;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.base.OutputException;
import dev.tensorbroadcast.job.cli.TensorBroadcastCli;
import dev.tensorbroadcast.job.commit.OutputDirectory;
import dev.tensorbroadcast.job.commit.OutputLock;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.localcluster.SparkHome;
import dev.tensorbroadcast.localcluster.s3.ConditionalS3Server;
import dev.tensorbroadcast.localcluster.s3.S3Server;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The output lock on {@code s3a://}: its write is an {@code If-None-Match: *} one. A server that honours the header
 * (S3Mock, as AWS S3) refuses the lock's second write with 412 whatever S3A believed of the key; S3Proxy ignores the
 * header and takes it. Writers racing for one output on S3Mock: at least one gets the lock and every refusal is the
 * one line naming it; S3Mock decides the header by a check and a write of its own, not atomically, so two writers
 * at the same instant can both get it there (AWS S3 decides atomically; docs/storage.md).
 */
class S3LockIT {
    private static final int RACES = 50;
    private static final String REFUSAL = "another tensor-broadcast job is writing it";

    private static Path dir;
    private static ConditionalS3Server conditional;
    private static S3Server proxy;
    private static ExecutorService writers;

    @BeforeAll
    static void startServers() throws IOException {
        dir = Files.createTempDirectory("s3-lock");
        conditional = ConditionalS3Server.start(SparkHome.locate(), dir.resolve("s3mock"));
        proxy = S3Server.start(SparkHome.locate(), dir.resolve("s3proxy"));
        writers = Executors.newFixedThreadPool(2);
    }

    @AfterAll
    static void stopServers() {
        if (writers != null) {
            writers.shutdownNow();
        }
        if (conditional != null) {
            conditional.close();
        }
        if (proxy != null) {
            proxy.close();
        }
    }

    private static Configuration conf(Map<String, String> settings) {
        Configuration conf = new Configuration();
        settings.forEach(conf::set);
        return conf;
    }

    private static FileSystem fileSystem(String uri, Configuration conf) throws IOException {
        return new org.apache.hadoop.fs.Path(uri).getFileSystem(conf);
    }

    @Test
    void theLocksSecondWriteIsRefusedByAServerThatHonoursConditionalWrites() throws IOException {
        Configuration conf = conf(conditional.hadoopSettings());
        org.apache.hadoop.fs.Path lock =
                new org.apache.hadoop.fs.Path(conditional.uri("refused/" + OutputLock.FILE_NAME));
        FileSystem fileSystem = fileSystem(conditional.uri(""), conf);

        assertThat(S3Store.createIfAbsent(fileSystem, lock, "first\n".getBytes(UTF_8)))
                .isTrue();
        assertThat(S3Store.createIfAbsent(fileSystem, lock, "second\n".getBytes(UTF_8)))
                .isFalse();
        try (var in = fileSystem.open(lock)) {
            assertThat(new String(in.readAllBytes(), UTF_8)).isEqualTo("first\n");
        }
    }

    @Test
    void s3ProxyTakesTheLocksSecondWriteSoOnlyTheExistenceCheckGuardsIt() throws IOException {
        Configuration conf = conf(proxy.hadoopSettings());
        org.apache.hadoop.fs.Path lock = new org.apache.hadoop.fs.Path(proxy.uri("taken/" + OutputLock.FILE_NAME));
        FileSystem fileSystem = fileSystem(proxy.uri(""), conf);

        assertThat(S3Store.createIfAbsent(fileSystem, lock, "first\n".getBytes(UTF_8)))
                .isTrue();
        assertThat(S3Store.createIfAbsent(fileSystem, lock, "second\n".getBytes(UTF_8)))
                .isTrue();
        // a writer that comes second still finds the lock: the look before the write refuses it
        try (OutputLock held =
                OutputDirectory.check(proxy.uri("checked"), false, conf).lock()) {
            assertThat(org.assertj.core.api.Assertions.catchThrowable(
                            () -> OutputDirectory.check(proxy.uri("checked"), true, conf)
                                    .lock()))
                    .isInstanceOf(OutputException.class)
                    .hasMessageContaining(REFUSAL);
        }
    }

    /** What one writer got: its lock, or the one line it was refused with. */
    private record Attempt(OutputLock lock, String refusal) {}

    /** Two writers take {@code output}'s lock at the same moment; both locks are held until both have answered. */
    private static List<Attempt> race(String output, Configuration conf) throws Exception {
        CyclicBarrier start = new CyclicBarrier(2);
        List<CompletableFuture<Attempt>> attempts = new ArrayList<>();
        for (int writer = 0; writer < 2; writer++) {
            attempts.add(CompletableFuture.supplyAsync(
                    () -> {
                        OutputDirectory directory = OutputDirectory.check(output, false, conf);
                        try {
                            start.await();
                            return new Attempt(directory.lock(), null);
                        } catch (OutputException e) {
                            return new Attempt(null, e.getMessage());
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    },
                    writers));
        }
        List<Attempt> results = new ArrayList<>();
        for (CompletableFuture<Attempt> attempt : attempts) {
            results.add(attempt.get());
        }
        for (Attempt attempt : results) {
            if (attempt.lock() != null) {
                attempt.lock().close();
            }
        }
        return results;
    }

    @Test
    void racingWritersOnS3AreAnsweredWithTheLockOrOneLineNamingIt() throws Exception {
        Configuration conf = conf(conditional.hadoopSettings());
        int refused = 0;
        for (int i = 0; i < RACES; i++) {
            String output = conditional.uri("race-" + i);
            List<Attempt> attempts = race(output, conf);
            assertThat(attempts).as("race %d", i).anyMatch(attempt -> attempt.lock() != null);
            for (Attempt attempt : attempts) {
                if (attempt.refusal() != null) {
                    refused++;
                    assertThat(attempt.refusal())
                            .as("race %d", i)
                            .doesNotContain("\n")
                            .startsWith("Cannot write to '" + output + "': " + REFUSAL + " (process "
                                    + ProcessHandle.current().pid() + " on host ")
                            .contains(OutputLock.FILE_NAME);
                }
            }
        }
        System.out.println("[S3LockIT] S3Mock: " + refused + " of " + RACES + " races refused the second writer");
        // every winner removed its lock and the directory it made: nothing is left of the races
        FileSystem fileSystem = fileSystem(conditional.uri(""), conf);
        assertThat(fileSystem.listStatus(new org.apache.hadoop.fs.Path(conditional.uri(""))))
                .noneMatch(status -> status.getPath().getName().startsWith("race-"));
    }

    @Test
    void aCommandIsRefusedInOneLineWhileAnotherHoldsTheLockOnS3() throws Exception {
        Configuration conf = conf(conditional.hadoopSettings());
        String output = conditional.uri("held");
        Path source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 8});
        try (OutputLock held = OutputDirectory.check(output, false, conf).lock()) {
            List<String> args = new ArrayList<>(List.of(
                    "expand",
                    "--input",
                    source.toString(),
                    "--dialect",
                    "numpy",
                    "--shape",
                    "16,8",
                    "--output",
                    output,
                    "--overwrite"));
            conditional
                    .hadoopSettings()
                    .forEach((key, value) -> args.addAll(List.of("--conf", "spark.hadoop." + key + "=" + value)));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int exitCode = TensorBroadcastCli.run(
                    args.toArray(String[]::new), new PrintStream(out, true, UTF_8), new PrintStream(err, true, UTF_8));
            assertThat(exitCode).isEqualTo(2);
            assertThat(err.toString(UTF_8).lines().toList())
                    .singleElement()
                    .asString()
                    .startsWith("Cannot write to '" + output + "': " + REFUSAL)
                    .contains(OutputLock.FILE_NAME);
        }
    }
}
