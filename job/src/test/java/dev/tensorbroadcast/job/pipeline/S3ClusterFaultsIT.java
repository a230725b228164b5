package dev.tensorbroadcast.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.manifest.DatasetFile;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.ManifestJson;
import dev.tensorbroadcast.localcluster.ProcessCluster;
import dev.tensorbroadcast.localcluster.junit.WithLocalCluster;
import dev.tensorbroadcast.localcluster.junit.WithS3Server;
import dev.tensorbroadcast.localcluster.s3.S3Server;
import dev.tensorbroadcast.planner.Dialect;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.apache.spark.scheduler.TaskInfo;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The S3A commit on a real standalone cluster (two workers, each a host of its own, as speculation needs) against a
 * real S3 server: the session's {@code spark.hadoop.fs.s3a.*} settings carry the server and its keys, as a user's
 * Java program would give them. A clean run is the reference; a run with a speculative copy of a slow task, and a run
 * that loses an executor mid-job, each leave exactly one object per partition, byte for byte the clean run's.
 */
@WithLocalCluster(
        workers = 2,
        workerCores = 1,
        workerMemory = "1g",
        hdfs = true,
        distinctWorkerHosts = true,
        shared = true)
@Tag(SharedCluster.TAG)
@WithS3Server
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class S3ClusterFaultsIT {
    private static final int PARTITIONS = 8;
    private static final long SLOW_PARTITION = 3;

    @TempDir
    static Path dir;

    private static SparkSession spark;
    private static Path source;

    @BeforeAll
    static void connect(ProcessCluster cluster, S3Server s3) throws IOException {
        source = NpyFiles.int32(dir.resolve("rows.npy"), new long[] {4, 1, 64});
        Map<String, String> settings = new HashMap<>(s3.sparkSettings());
        settings.putAll(Map.of(
                "spark.speculation",
                "true",
                "spark.speculation.interval",
                "100ms",
                "spark.speculation.multiplier",
                "1.5",
                "spark.speculation.quantile",
                "0.5",
                "spark.speculation.minTaskRuntime",
                "1s"));
        spark = ClusterRuns.session(cluster, settings);
    }

    @AfterAll
    static void disconnect() {
        if (spark != null) {
            spark.stop();
        }
    }

    private static TensorBroadcast request(S3Server s3, String key) {
        return TensorBroadcast.builder()
                .source(source.toString())
                .dialect(Dialect.NUMPY)
                .shape(4, 480, 64)
                .partitions(PARTITIONS)
                .output(s3.uri(key))
                .build();
    }

    /** The objects under {@code key} as the server keeps them, by name: what a listing reader finds. */
    private static Map<String, byte[]> objects(S3Server s3, String key) throws IOException {
        Map<String, byte[]> objects = new HashMap<>();
        try (Stream<Path> entries = Files.list(s3.bucketDirectory().resolve(key))) {
            for (Path entry : entries.filter(Files::isRegularFile).toList()) {
                objects.put(entry.getFileName().toString(), Files.readAllBytes(entry));
            }
        }
        return objects;
    }

    /** One object per partition, each byte for byte the clean run's, the manifest and _SUCCESS, nothing else. */
    private static void assertLikeTheCleanRun(S3Server s3, String key, Manifest manifest) throws IOException {
        assertThat(manifest.files().stream().map(DatasetFile::partition).toList())
                .isEqualTo(LongStream.range(0, PARTITIONS).boxed().toList());
        Map<String, byte[]> clean = objects(s3, "clean");
        Map<String, byte[]> written = objects(s3, key);
        List<String> parts = clean.keySet().stream()
                .filter(name -> name.startsWith(Manifest.PART_PREFIX))
                .sorted()
                .toList();
        assertThat(parts).hasSize(PARTITIONS);
        assertThat(written.keySet()).containsExactlyInAnyOrderElementsOf(clean.keySet());
        for (String part : parts) {
            assertThat(written.get(part)).as(part).isEqualTo(clean.get(part));
        }
    }

    @Test
    @Order(1)
    void aCleanRunWritesThroughTheSessionsS3ASettingsAndTheSecretIsInNothingItReturnsOrWrites(S3Server s3)
            throws IOException {
        Manifest manifest = request(s3, "clean").run(spark);

        assertThat(manifest.partitions()).isEqualTo(PARTITIONS);
        assertThat(manifest.files()).hasSize(PARTITIONS);
        assertThat(objects(s3, "clean").keySet())
                .contains(Manifest.FILE_NAME, Manifest.SUCCESS_FILE_NAME, "part-00000.arrow", "part-00007.arrow");
        assertThat(manifest.toString()).doesNotContain(s3.secretKey());
        assertThat(new String(ManifestJson.toBytes(manifest), StandardCharsets.UTF_8))
                .doesNotContain(s3.secretKey());
        for (byte[] object : objects(s3, "clean").values()) {
            assertThat(new String(object, StandardCharsets.ISO_8859_1)).doesNotContain(s3.secretKey());
        }
    }

    @Test
    @Order(2)
    void aSpeculativeCopyOvertakesTheSlowTaskAndOneObjectPerPartitionIsVisible(S3Server s3) throws Exception {
        List<TaskInfo> started = new CopyOnWriteArrayList<>();
        SparkListener listener = new SparkListener() {
            @Override
            public void onTaskStart(SparkListenerTaskStart taskStart) {
                started.add(taskStart.taskInfo());
            }
        };
        spark.sparkContext().addSparkListener(listener);
        Manifest manifest;
        long start = System.nanoTime();
        try {
            // the first attempt of one partition sleeps 60 s; a speculative copy does not
            spark.sparkContext().setLocalProperty(InjectedFailure.SLOW_PARTITION, Long.toString(SLOW_PARTITION));
            spark.sparkContext().setLocalProperty(InjectedFailure.SLOW_MILLIS, "60000");
            manifest = request(s3, "speculated").run(spark);
        } finally {
            spark.sparkContext().setLocalProperty(InjectedFailure.SLOW_PARTITION, null);
            spark.sparkContext().setLocalProperty(InjectedFailure.SLOW_MILLIS, null);
            spark.sparkContext().listenerBus().waitUntilEmpty();
            spark.sparkContext().removeSparkListener(listener);
        }
        double seconds = (System.nanoTime() - start) / 1e9;

        List<TaskInfo> speculative =
                started.stream().filter(TaskInfo::speculative).toList();
        assertThat(speculative).hasSize(1);
        assertThat(speculative.get(0).index()).isEqualTo((int) SLOW_PARTITION);
        assertThat(seconds).isLessThan(60);
        assertLikeTheCleanRun(s3, "speculated", manifest);
        System.out.printf(
                "s3 speculation: copy of partition %d overtook the original; job %.1f s%n", SLOW_PARTITION, seconds);
    }

    @Test
    @Order(3)
    void anExecutorKilledMidJobIsRetriedAndTheObjectsAreTheCleanRunsByteForByte(ProcessCluster cluster, S3Server s3)
            throws Exception {
        ClusterRuns.AfterKill<Manifest> killed = ClusterRuns.killingWhileRunning(
                spark,
                500,
                2,
                ClusterRuns.anExecutor(cluster),
                () -> request(s3, "killed").run(spark));

        assertLikeTheCleanRun(s3, "killed", killed.result());
        System.out.printf(
                "s3 executor killed: job finished in %.1f s, %d task ends for %d partitions%n",
                killed.seconds(), killed.taskEnds(), PARTITIONS);
    }
}
