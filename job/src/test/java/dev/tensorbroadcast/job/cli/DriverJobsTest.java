package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tensorbroadcast.job.spark.NpyFiles;
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
 * A small job on the embedded default runs its tasks in the driver, without Spark (issue 28): the same files, byte for
 * byte, and the same manifest as the Spark job writes; and what decides between the two.
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
                List.of("expand", "--input", source.toString(), "--dialect", "numpy", "--shape", "[0,3,5]",
                        "--output", out.resolve("empty").toString()),
                List.of("expand", "--input", scalar.toString(), "--dialect", "numpy", "--shape", "[]", "--format",
                        "parquet", "--output", out.resolve("scalar").toString()),
                List.of("expand", "--input", source.toString(), "--dialect", "numpy", "--shape", "[40,3,5]",
                        "--partitions", "3", "--output", out.resolve("arrow").toString()),
                List.of("expand", "--input", source.toString(), "--dialect", "numpy", "--shape", "[40,3,5]",
                        "--partitions", "2", "--format", "parquet", "--compression", "zstd", "--output",
                        out.resolve("parquet").toString()),
                // float32 sums: the driver's partials must add in the same order as the Spark job's merge
                List.of("reduce", "--input", gradient.toString(), "--dialect", "numpy", "--input-shape", "[1,7]",
                        "--shape", "[300,7]", "--partitions", "9", "--output", out.resolve("sum.npy").toString()),
                // rows kept: each task's slice written in partition order
                List.of("reduce", "--input", gradient.toString(), "--dialect", "numpy", "--input-shape", "[300,1]",
                        "--shape", "[300,7]", "--partitions", "4", "--output", out.resolve("rows.npy").toString()),
                List.of("reduce", "--input", gradient.toString(), "--dialect", "numpy", "--input-shape", "[1,7]",
                        "--shape", "[300,7]", "--partitions", "3", "--format", "arrow", "--output",
                        out.resolve("sum-dataset").toString()));
    }

    @Test
    void aSmallJobWritesInTheDriverWhatSparkWrites() throws Exception {
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
        SparkSession session = SparkSession.builder().master("local[2]").appName("DriverJobsTest")
                .config("spark.ui.enabled", "false").getOrCreate();
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
        assertThat(jobs.get()).isGreaterThanOrEqualTo(7);

        Map<String, byte[]> fromDriver = files(driver);
        Map<String, byte[]> fromSpark = files(spark);
        assertThat(fromDriver.keySet()).containsExactlyElementsOf(fromSpark.keySet())
                .contains("arrow/part-00002.arrow", "parquet/part-00001.parquet", "sum.npy", "rows.npy",
                        "sum-dataset/part-00000.arrow", "arrow/_manifest.json", "arrow/_SUCCESS",
                        "empty/part-00000.arrow", "scalar/part-00000.parquet");
        for (String name : fromDriver.keySet()) {
            if (name.endsWith("_manifest.json")) {
                assertThat(withoutTime(fromDriver.get(name))).as(name).isEqualTo(withoutTime(fromSpark.get(name)));
            } else {
                assertThat(fromDriver.get(name)).as(name).isEqualTo(fromSpark.get(name));
            }
        }
        // the sums are the sums, not only the same on both sides
        ByteBuffer sums = ByteBuffer.wrap(fromDriver.get("sum.npy")).order(ByteOrder.LITTLE_ENDIAN);
        sums.position(sums.capacity() - 7 * 4);
        for (int column = 0; column < 7; column++) {
            double expected = 0;
            for (int row = 0; row < 300; row++) {
                expected += value(row, column);
            }
            assertThat(sums.getFloat()).isEqualTo((float) expected);
        }
    }

    /** The choice: only the embedded default, without Spark settings or a running application, small and local. */
    @Test
    void onlyASmallLocalJobWithoutMasterOrSparkSettingsRunsInTheDriver() {
        JobEngines.Job small = new JobEngines.Job(1024, 2, true);
        assertThat(JobEngines.inDriver(null, Map.of(), small, false)).isTrue();
        assertThat(JobEngines.inDriver(null, Map.of("spark.hadoop.fs.s3a.endpoint", "x"), small, false)).isTrue();
        // --master, even the default's own, forces Spark
        assertThat(JobEngines.inDriver("local[*]", Map.of(), small, false)).isFalse();
        assertThat(JobEngines.inDriver("local[2]", Map.of(), small, false)).isFalse();
        assertThat(JobEngines.inDriver(null, Map.of("spark.task.maxFailures", "4"), small, false)).isFalse();
        assertThat(JobEngines.inDriver(null, Map.of(), small, true)).isFalse();
        assertThat(JobEngines.inDriver(null, Map.of(), new JobEngines.Job(1024, 2, false), false)).isFalse();
        // the thresholds, at and past their edges
        assertThat(JobEngines.inDriver(null, Map.of(),
                new JobEngines.Job(JobEngines.DRIVER_BYTES, JobEngines.DRIVER_TASKS, true), false)).isTrue();
        assertThat(JobEngines.inDriver(null, Map.of(),
                new JobEngines.Job(JobEngines.DRIVER_BYTES + 1, 1, true), false)).isFalse();
        assertThat(JobEngines.inDriver(null, Map.of(),
                new JobEngines.Job(1, JobEngines.DRIVER_TASKS + 1, true), false)).isFalse();
        assertThat(JobEngines.local("/tmp/x")).isTrue();
        assertThat(JobEngines.local("file:/tmp/x")).isTrue();
        assertThat(JobEngines.local(null)).isTrue();
        assertThat(JobEngines.local("s3a://bucket/x")).isFalse();
        assertThat(JobEngines.local("hdfs://namenode:8020/x")).isFalse();
    }

    /** A job past the threshold, or given --master, runs on Spark, and says nothing about the driver. */
    @Test
    void aLargerJobAndAGivenMasterRunOnSpark() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 4096});
        // 33 MiB of int32 values: past the driver's 32 MiB
        CliRun large = CliRun.of("expand", "--input", source.toString(), "--dialect", "numpy", "--shape",
                "[2112,4096]", "--format", "null", "--verbose");
        assertThat(large.exitCode()).as(large.err()).isZero();
        assertThat(large.err()).doesNotContain(DRIVER_LINE);
        CliRun small = CliRun.of("expand", "--input", source.toString(), "--dialect", "numpy", "--shape",
                "[2048,4096]", "--format", "null", "--verbose");
        assertThat(small.exitCode()).as(small.err()).isZero();
        assertThat(small.err()).contains(DRIVER_LINE + ": a small job (32.0 MiB, ");
        // --master, even for a small job: on Spark, and the null sink's checksums are the same either way
        CliRun given = CliRun.of("expand", "--input", source.toString(), "--dialect", "numpy", "--shape", "[2,4096]",
                "--format", "null", "--master", "local[1]", "--json", "--verbose");
        assertThat(given.exitCode()).as(given.err()).isZero();
        assertThat(given.err()).doesNotContain(DRIVER_LINE);
        CliRun inDriver = CliRun.of("expand", "--input", source.toString(), "--dialect", "numpy", "--shape",
                "[2,4096]", "--format", "null", "--json", "--verbose");
        assertThat(inDriver.err()).contains(DRIVER_LINE);
        assertThat(withoutSeconds(inDriver.json())).isEqualTo(withoutSeconds(given.json()))
                .contains("\"crc32c\"");
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
    private static Map<String, byte[]> files(Path root) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path file : walk.filter(Files::isRegularFile).toList()) {
                files.put(root.relativize(file).toString(), Files.readAllBytes(file));
            }
        }
        return files;
    }

    /** A manifest without its creation time, and with the request's output paths (they name different dirs). */
    private static JsonNode withoutTime(byte[] manifest) throws IOException {
        ObjectNode json = (ObjectNode) MAPPER.readTree(manifest);
        assertThat(json.remove("created")).isNotNull();
        return json;
    }
}
