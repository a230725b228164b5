package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job on the embedded default runs its tasks on the driver's threads, without Spark (issue 28): the same files, byte
 * for byte, and the same manifest as the Spark job writes, for one task or many on several threads; a failed task
 * leaves nothing of the new dataset; and what decides between the two.
 */
class DriverJobsTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String DRIVER_LINE = "running the job in this process without Spark";

    @TempDir
    Path dir;

    /** The runs of the comparison, each given its output directory or file. */
    private List<List<String>> runs(Path source, Path scalar, Path gradient, Path out) {
        return List.of(
                // the edges: no rows, and a rank-0 tensor
                List.of(
                        "expand",
                        "--input",
                        source.toString(),
                        "--dialect",
                        "numpy",
                        "--shape",
                        "[0,3,5]",
                        "--output",
                        out.resolve("empty").toString()),
                List.of(
                        "expand",
                        "--input",
                        scalar.toString(),
                        "--dialect",
                        "numpy",
                        "--shape",
                        "[]",
                        "--format",
                        "parquet",
                        "--output",
                        out.resolve("scalar").toString()),
                List.of(
                        "expand",
                        "--input",
                        source.toString(),
                        "--dialect",
                        "numpy",
                        "--shape",
                        "[40,3,5]",
                        "--partitions",
                        "3",
                        "--output",
                        out.resolve("arrow").toString()),
                List.of(
                        "expand",
                        "--input",
                        source.toString(),
                        "--dialect",
                        "numpy",
                        "--shape",
                        "[40,3,5]",
                        "--partitions",
                        "2",
                        "--format",
                        "parquet",
                        "--compression",
                        "zstd",
                        "--output",
                        out.resolve("parquet").toString()),
                // float32 sums: the driver's partials must add in the same order as the Spark job's merge
                List.of(
                        "reduce",
                        "--input",
                        gradient.toString(),
                        "--dialect",
                        "numpy",
                        "--input-shape",
                        "[1,7]",
                        "--shape",
                        "[300,7]",
                        "--partitions",
                        "9",
                        "--output",
                        out.resolve("sum.npy").toString()),
                // rows kept: each task's slice written in partition order
                List.of(
                        "reduce",
                        "--input",
                        gradient.toString(),
                        "--dialect",
                        "numpy",
                        "--input-shape",
                        "[300,1]",
                        "--shape",
                        "[300,7]",
                        "--partitions",
                        "4",
                        "--output",
                        out.resolve("rows.npy").toString()),
                List.of(
                        "reduce",
                        "--input",
                        gradient.toString(),
                        "--dialect",
                        "numpy",
                        "--input-shape",
                        "[1,7]",
                        "--shape",
                        "[300,7]",
                        "--partitions",
                        "3",
                        "--format",
                        "arrow",
                        "--output",
                        out.resolve("sum-dataset").toString()),
                // many tasks on several threads, finishing in any order: the files and their order are the same
                List.of(
                        "expand",
                        "--input",
                        source.toString(),
                        "--dialect",
                        "numpy",
                        "--shape",
                        "[640,3,5]",
                        "--partitions",
                        "16",
                        "--output",
                        out.resolve("arrow16").toString()),
                List.of(
                        "expand",
                        "--input",
                        source.toString(),
                        "--dialect",
                        "numpy",
                        "--shape",
                        "[640,3,5]",
                        "--partitions",
                        "20",
                        "--format",
                        "parquet",
                        "--output",
                        out.resolve("parquet20").toString()),
                List.of(
                        "expand",
                        "--input",
                        source.toString(),
                        "--dialect",
                        "numpy",
                        "--shape",
                        "[640,3,5]",
                        "--partitions",
                        "16",
                        "--format",
                        "zarr",
                        "--output",
                        out.resolve("zarr16").toString()),
                // 65 partials: a merge tree three levels deep, its last groups short
                List.of(
                        "reduce",
                        "--input",
                        gradient.toString(),
                        "--dialect",
                        "numpy",
                        "--input-shape",
                        "[1,7]",
                        "--shape",
                        "[300,7]",
                        "--partitions",
                        "65",
                        "--output",
                        out.resolve("sum65.npy").toString()),
                List.of(
                        "reduce",
                        "--input",
                        gradient.toString(),
                        "--dialect",
                        "numpy",
                        "--input-shape",
                        "[300,1]",
                        "--shape",
                        "[300,7]",
                        "--partitions",
                        "17",
                        "--output",
                        out.resolve("rows17.npy").toString()),
                List.of(
                        "reduce",
                        "--input",
                        gradient.toString(),
                        "--dialect",
                        "numpy",
                        "--input-shape",
                        "[300,1]",
                        "--shape",
                        "[300,7]",
                        "--partitions",
                        "16",
                        "--format",
                        "parquet",
                        "--output",
                        out.resolve("rows-dataset").toString()));
    }

    @Test
    void aJobWritesInTheDriverWhatSparkWrites() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("source.npy"), new long[] {1, 3, 5});
        Path scalar = NpyFiles.int32(dir.resolve("scalar.npy"), new long[] {});
        Path gradient = float32(dir.resolve("gradient.npy"), 300, 7);
        Path driver = Files.createDirectory(dir.resolve("driver"));
        for (List<String> args : runs(source, scalar, gradient, driver)) {
            List<String> verbose = new ArrayList<>(args);
            verbose.add("--verbose");
            CliRun run = CliRun.of(verbose.toArray(String[]::new));
            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.err()).as(args.toString()).contains(DRIVER_LINE);
        }
        assertThat(SparkSession.getDefaultSession().isEmpty()).isTrue();

        Path spark = Files.createDirectory(dir.resolve("spark"));
        SparkSession session = SparkSession.builder()
                .master("local[2]")
                .appName("DriverJobsTest")
                .config("spark.ui.enabled", "false")
                .getOrCreate();
        AtomicInteger jobs = new AtomicInteger();
        session.sparkContext().addSparkListener(new SparkListener() {
            @Override
            public void onJobStart(SparkListenerJobStart jobStart) {
                jobs.incrementAndGet();
            }
        });
        try {
            for (List<String> args : runs(source, scalar, gradient, spark)) {
                List<String> verbose = new ArrayList<>(args);
                verbose.add("--verbose");
                CliRun run = CliRun.of(verbose.toArray(String[]::new));
                assertThat(run.exitCode()).as(run.err()).isZero();
                assertThat(run.err()).doesNotContain(DRIVER_LINE);
            }
        } finally {
            session.stop();
        }
        // a job per run at least: every run was Spark's
        assertThat(jobs.get()).isGreaterThanOrEqualTo(13);

        Map<String, byte[]> fromDriver = files(driver);
        Map<String, byte[]> fromSpark = files(spark);
        assertThat(fromDriver.keySet())
                .containsExactlyElementsOf(fromSpark.keySet())
                .contains(
                        "arrow/part-00002.arrow",
                        "parquet/part-00001.parquet",
                        "sum.npy",
                        "rows.npy",
                        "sum-dataset/part-00000.arrow",
                        "arrow/_manifest.json",
                        "arrow/_SUCCESS",
                        "empty/part-00000.arrow",
                        "scalar/part-00000.parquet",
                        "arrow16/part-00015.arrow",
                        "parquet20/part-00019.parquet",
                        "zarr16/zarr.json",
                        "sum65.npy",
                        "rows17.npy",
                        "rows-dataset/part-00015.parquet");
        for (String name : fromDriver.keySet()) {
            if (name.endsWith("_manifest.json")) {
                assertThat(withoutTime(fromDriver.get(name))).as(name).isEqualTo(withoutTime(fromSpark.get(name)));
            } else {
                assertThat(fromDriver.get(name)).as(name).isEqualTo(fromSpark.get(name));
            }
        }
        // the sums are the sums, not only the same on both sides
        for (String name : List.of("sum.npy", "sum65.npy")) {
            ByteBuffer sums = ByteBuffer.wrap(fromDriver.get(name)).order(ByteOrder.LITTLE_ENDIAN);
            sums.position(sums.capacity() - 7 * 4);
            for (int column = 0; column < 7; column++) {
                double expected = 0;
                for (int row = 0; row < 300; row++) {
                    expected += value(row, column);
                }
                assertThat(sums.getFloat()).as(name).isEqualTo((float) expected);
            }
        }
        // the rows kept are each row's own sum, in row order
        ByteBuffer rows = ByteBuffer.wrap(fromDriver.get("rows17.npy")).order(ByteOrder.LITTLE_ENDIAN);
        rows.position(rows.capacity() - 300 * 4);
        for (int row = 0; row < 300; row++) {
            double expected = 0;
            for (int column = 0; column < 7; column++) {
                expected += value(row, column);
            }
            float kept = rows.getFloat();
            assertThat(kept).as("row %d", row).isEqualTo((float) expected);
        }
    }

    /** The choice: only the embedded default, without Spark settings or a running application, and local; any size. */
    @Test
    void onlyALocalJobWithoutMasterOrSparkSettingsRunsInTheDriver() {
        EngineChoice.Job small = new EngineChoice.Job(1024, 2, true);
        assertThat(EngineChoice.inDriver(null, Map.of(), small, false)).isTrue();
        assertThat(EngineChoice.inDriver(null, Map.of("spark.hadoop.fs.s3a.endpoint", "x"), small, false))
                .isTrue();
        // whatever its size: local[*] is threads of this JVM either way
        assertThat(EngineChoice.inDriver(
                        null, Map.of(), new EngineChoice.Job(Long.MAX_VALUE, Integer.MAX_VALUE, true), false))
                .isTrue();
        // --master, even the default's own, forces Spark
        assertThat(EngineChoice.whySpark("local[*]", Map.of(), small, false)).isEqualTo("--master local[*] was given");
        assertThat(EngineChoice.inDriver("local[2]", Map.of(), small, false)).isFalse();
        assertThat(EngineChoice.whySpark(
                        null, Map.of("spark.hadoop.x", "1", "spark.task.maxFailures", "4"), small, false))
                .isEqualTo("--conf spark.task.maxFailures is a Spark setting");
        assertThat(EngineChoice.whySpark(null, Map.of(), small, true))
                .isEqualTo("a Spark application runs in this JVM");
        assertThat(EngineChoice.whySpark(null, Map.of(), new EngineChoice.Job(1024, 2, false), false))
                .isEqualTo("the output is not on a local disk");
        assertThat(EngineChoice.local("/tmp/x")).isTrue();
        assertThat(EngineChoice.local("file:/tmp/x")).isTrue();
        assertThat(EngineChoice.local(null)).isTrue();
        assertThat(EngineChoice.local("s3a://bucket/x")).isFalse();
        assertThat(EngineChoice.local("hdfs://namenode:8020/x")).isFalse();
    }

    /** A large job runs in the driver too, on a thread per core; --master runs it on Spark, and says so. */
    @Test
    void aLargeJobRunsInTheDriverAndAGivenMasterOnSpark() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 4096});
        // 33 MiB of int32 values: past the 32 MiB that was the driver's limit before
        CliRun large = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "[2112,4096]",
                "--format",
                "null",
                "--partitions",
                "8",
                "--verbose");
        assertThat(large.exitCode()).as(large.err()).isZero();
        int threads = Math.min(8, Runtime.getRuntime().availableProcessors());
        assertThat(large.err())
                .contains(DRIVER_LINE + ", on " + Plural.of(threads, "thread")
                        + ": the embedded default (33.0 MiB, 8 tasks); --master 'local[*]' runs it on Spark");
        // --master, even for a small job: on Spark, and the null sink's checksums are the same either way
        CliRun given = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "[2,4096]",
                "--format",
                "null",
                "--master",
                "local[1]",
                "--json",
                "--verbose");
        assertThat(given.exitCode()).as(given.err()).isZero();
        assertThat(given.err())
                .doesNotContain(DRIVER_LINE)
                .contains("running the job on Spark: --master local[1] was" + " given");
        CliRun inDriver = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "[2,4096]",
                "--format",
                "null",
                "--json",
                "--verbose");
        assertThat(inDriver.err()).contains(DRIVER_LINE);
        assertThat(withoutSeconds(inDriver.json()))
                .isEqualTo(withoutSeconds(given.json()))
                .contains("\"crc32c\"");
    }

    /**
     * A task that fails midway through a job of many tasks on the driver's threads: the run fails with the task's
     * reason, nothing of the new dataset is left, and an {@code --overwrite}'s old dataset stays as it was, byte for
     * byte. The failure is injected through a Hadoop setting (which keeps the job in the driver).
     */
    @Test
    void aTaskFailingMidwayLeavesNothingOfTheNewDataset() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("source.npy"), new long[] {1, 3, 5});
        Path gradient = float32(dir.resolve("gradient.npy"), 300, 7);
        String failing = "spark.hadoop.tensorbroadcast.test.failPartition=9";
        Path fresh = dir.resolve("fresh");
        CliRun failed = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "[640,3,5]",
                "--partitions",
                "16",
                "--output",
                fresh.toString(),
                "--conf",
                failing,
                "--verbose");
        assertThat(failed.exitCode()).as(failed.err()).isNotZero();
        assertThat(failed.err()).contains(DRIVER_LINE).contains("injected failure in partition 9, attempt 0");
        assertThat(fresh).doesNotExist();

        Path old = dir.resolve("old");
        CliRun first = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "[64,3,5]",
                "--partitions",
                "4",
                "--format",
                "parquet",
                "--output",
                old.toString());
        assertThat(first.exitCode()).as(first.err()).isZero();
        Map<String, String> before = OutputIsInputTest.checksums(old);
        for (String format : List.of("arrow", "zarr")) {
            CliRun overwrite = CliRun.of(
                    "expand",
                    "--input",
                    source.toString(),
                    "--dialect",
                    "numpy",
                    "--shape",
                    "[640,3,5]",
                    "--partitions",
                    "16",
                    "--format",
                    format,
                    "--output",
                    old.toString(),
                    "--overwrite",
                    "--conf",
                    failing);
            assertThat(overwrite.exitCode()).as(overwrite.err()).isNotZero();
            assertThat(overwrite.err()).contains("injected failure in partition 9");
            assertThat(OutputIsInputTest.checksums(old)).as(format).isEqualTo(before);
        }

        // a reduce's tasks: the rows kept into a dataset, and the rows summed into a .npy
        Path kept = dir.resolve("kept");
        CliRun reduceKept = CliRun.of(
                "reduce",
                "--input",
                gradient.toString(),
                "--dialect",
                "numpy",
                "--input-shape",
                "[300,1]",
                "--shape",
                "[300,7]",
                "--partitions",
                "16",
                "--format",
                "arrow",
                "--output",
                kept.toString(),
                "--conf",
                failing);
        assertThat(reduceKept.exitCode()).as(reduceKept.err()).isNotZero();
        assertThat(reduceKept.err()).contains("injected failure in partition 9");
        assertThat(kept).doesNotExist();
        Path sum = dir.resolve("sum.npy");
        CliRun reduceSum = CliRun.of(
                "reduce",
                "--input",
                gradient.toString(),
                "--dialect",
                "numpy",
                "--input-shape",
                "[1,7]",
                "--shape",
                "[300,7]",
                "--partitions",
                "16",
                "--output",
                sum.toString(),
                "--conf",
                failing);
        assertThat(reduceSum.exitCode()).as(reduceSum.err()).isNotZero();
        assertThat(reduceSum.err()).contains("injected failure in partition 9");
        assertThat(sum).doesNotExist();
        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left.map(path -> path.getFileName().toString()))
                    .containsExactlyInAnyOrder("source.npy", "gradient.npy", "old");
        }
    }

    private static String withoutSeconds(JsonNode json) {
        return json.toString().replaceAll("\"(job_)?seconds\":[0-9.E-]+", "");
    }

    private static float value(int row, int column) {
        // values of several magnitudes, so the order of the adds shows in the float32 result
        return (float) ((row * 7 + column) % 13) * (row % 3 == 0 ? 1e-3f : 1e3f) + 0.1f;
    }

    private static Path float32(Path file, int rows, int columns) throws IOException {
        ByteBuffer data = ByteBuffer.allocate(rows * columns * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int row = 0; row < rows; row++) {
            for (int column = 0; column < columns; column++) {
                data.putFloat(value(row, column));
            }
        }
        return NpyFiles.write(file, "<f4", new long[] {rows, columns}, data.array());
    }

    /** Every file under {@code root} by its relative path. */
    static Map<String, byte[]> files(Path root) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path file : walk.filter(Files::isRegularFile).toList()) {
                files.put(root.relativize(file).toString(), Files.readAllBytes(file));
            }
        }
        return files;
    }

    /** A manifest without its creation time, and with the request's output paths (they name different dirs). */
    static JsonNode withoutTime(byte[] manifest) throws IOException {
        ObjectNode json = (ObjectNode) MAPPER.readTree(manifest);
        assertThat(json.remove("created")).isNotNull();
        return json;
    }
}
