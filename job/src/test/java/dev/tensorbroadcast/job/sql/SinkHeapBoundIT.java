package dev.tensorbroadcast.job.sql;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sink's bound, in a JVM of its own: a local Spark with a heap of {@link #HEAP_MIB} MiB writes one DataFrame
 * partition of {@link #PARTITION_MIB} MiB of tensor values (and a kept column) through
 * {@code df.write.format("tensorbroadcast")}. A task that held its partition on the heap could not: the heap is a
 * quarter of the partition.
 */
class SinkHeapBoundIT {
    private static final int HEAP_MIB = 160;
    private static final int PARTITION_MIB = 640;
    /** float32 values per row: 16 KiB rows. */
    private static final int ROW_ELEMENTS = 4096;

    private static final long ROWS = ((long) PARTITION_MIB << 20) / (4L * ROW_ELEMENTS);

    @TempDir
    Path dir;

    @Test
    void aPartitionFourTimesTheHeapIsWritten() throws Exception {
        Path output = dir.resolve("out");
        Path log = dir.resolve("java.log");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + HEAP_MIB + "m");
        command.add("-XX:+UseSerialGC");
        // the openings Spark needs, as this JVM was given them
        for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (argument.startsWith("--add-opens") || argument.startsWith("-Dio.netty")) {
                command.add(argument);
            }
        }
        command.addAll(List.of(
                "-Djava.io.tmpdir=" + dir,
                "-cp",
                System.getProperty("java.class.path"),
                Writer.class.getName(),
                output.toString()));
        Process java = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        boolean exited = java.waitFor(5, TimeUnit.MINUTES);
        if (!exited) {
            java.destroyForcibly();
        }
        String printed = Files.readString(log, StandardCharsets.UTF_8);
        printed.lines()
                .filter(line -> line.startsWith("max heap ") || line.startsWith("peak heap "))
                .forEach(System.out::println);

        assertThat(exited).as(printed).isTrue();
        assertThat(java.exitValue()).as(printed).isZero();
        JsonNode manifest =
                new ObjectMapper().readTree(output.resolve("_manifest.json").toFile());
        assertThat(manifest.get("rows").asLong()).isEqualTo(ROWS);
        assertThat(manifest.get("partitions").asLong()).isEqualTo(1);
        assertThat(manifest.get("files").get(0).get("bytes").asLong())
                .isGreaterThan((long) PARTITION_MIB << 20)
                .isGreaterThan(4L * maxHeap(printed));
        assertThat(manifest.get("kept_columns")).hasSize(1);
        // nothing spilled is left behind: the spill files went to the fork's temporary or Spark's local directory
        try (var left = Files.walk(dir)) {
            assertThat(left.filter(path -> path.toString().endsWith(".spill")
                            || path.getFileName().toString().startsWith("temp_local_")))
                    .isEmpty();
        }
    }

    /** The fork's largest heap, as it printed it. */
    private static long maxHeap(String printed) {
        for (String line : printed.split("\n")) {
            if (line.startsWith("max heap ")) {
                return Long.parseLong(line.substring("max heap ".length()).trim());
            }
        }
        throw new AssertionError("the fork printed no max heap: " + printed);
    }

    /** The forked JVM: writes {@link #ROWS} rows in one partition to the directory it is given. */
    public static final class Writer {
        private Writer() {}

        public static void main(String[] args) throws IOException {
            System.out.println("max heap " + Runtime.getRuntime().maxMemory());
            SparkSession spark = SparkSession.builder()
                    .master("local[1]")
                    .config("spark.ui.enabled", "false")
                    .config("spark.sql.shuffle.partitions", "1")
                    .config("spark.local.dir", System.getProperty("java.io.tmpdir"))
                    // Spark refuses a heap under 450 MiB for its memory manager; what is bounded here is the sink
                    .config("spark.testing.memory", Long.toString(512L << 20))
                    .getOrCreate();
            try {
                spark.range(0, ROWS, 1, 1)
                        .selectExpr(
                                "id AS index",
                                "array_repeat(CAST(id AS float), " + ROW_ELEMENTS + ") AS tensor",
                                "id % 7 AS label")
                        .write()
                        .format("tensorbroadcast")
                        .option("format", "arrow")
                        .mode("append")
                        .save(args[0]);
            } finally {
                spark.stop();
            }
            long peak = 0;
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getType() == MemoryType.HEAP) {
                    peak += pool.getPeakUsage().getUsed();
                }
            }
            System.out.println("peak heap " + peak);
        }
    }
}
