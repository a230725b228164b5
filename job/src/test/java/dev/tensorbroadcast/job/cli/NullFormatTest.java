package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tensorbroadcast.job.base.Crc32c;
import dev.tensorbroadcast.job.manifest.DatasetFile;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.pipeline.DatasetFiles;
import dev.tensorbroadcast.job.pipeline.LocalSpark;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code expand --format null}: computes every partition, writes nothing, and reports the values' checksums. */
class NullFormatTest {
    private static SparkSession spark;

    @TempDir
    Path dir;

    @BeforeAll
    static void startSpark() {
        spark = LocalSpark.start();
    }

    @AfterAll
    static void stopSpark() {
        spark.stop();
    }

    private List<String> expand(Path source, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "3,50,8",
                "--partitions",
                "3"));
        args.addAll(List.of(more));
        return args;
    }

    /** Each partition's checksum is the CRC-32C of the values the Arrow file of the same partition holds. */
    @Test
    void checksumsEqualTheArrowFilesValues() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("col.npy"), new long[] {3, 50, 1});
        CliRun discarded =
                CliRun.of(expand(source, "--format", "null", "--json").toArray(String[]::new));
        assertThat(discarded.exitCode()).as(discarded.err()).isZero();
        Path output = dir.resolve("arrow");
        CliRun written = CliRun.of(expand(source, "--output", output.toString()).toArray(String[]::new));
        assertThat(written.exitCode()).as(written.err()).isZero();

        JsonNode json = discarded.json();
        assertThat(json.get("format").asText()).isEqualTo("null");
        // the job's own time excludes Spark's start-up (here the reused test session's lookup)
        assertThat(json.get("job_seconds").asDouble())
                .isPositive()
                .isLessThanOrEqualTo(json.get("seconds").asDouble());
        assertThat(CliRun.longs(json.get("shape"))).containsExactly(3, 50, 8);
        // rows of [50,8]: one per partition
        assertThat(json.get("rows").asLong()).isEqualTo(3);
        assertThat(json.get("bytes").asLong()).isEqualTo(3 * 50 * 8 * 4);
        Manifest manifest = DatasetFiles.manifest(output);
        List<DatasetFiles.ArrowRow> rows = DatasetFiles.arrowRows(output, manifest);
        JsonNode partitions = json.get("partitions");
        assertThat(partitions).hasSize(manifest.files().size());
        for (int p = 0; p < partitions.size(); p++) {
            DatasetFile file = manifest.files().get(p);
            ByteBuffer bytes =
                    ByteBuffer.allocate((int) file.rows() * 50 * 8 * 4).order(ByteOrder.LITTLE_ENDIAN);
            for (DatasetFiles.ArrowRow row : rows.subList((int) file.firstRow(), (int) file.endRow())) {
                row.values().forEach(value -> bytes.putInt((Integer) value));
            }
            CRC32C crc = new CRC32C();
            crc.update(bytes.array());
            JsonNode partition = partitions.get(p);
            assertThat(partition.get("first_row").asLong()).isEqualTo(file.firstRow());
            assertThat(partition.get("rows").asLong()).isEqualTo(file.rows());
            assertThat(partition.get("bytes").asLong()).isEqualTo(bytes.capacity());
            assertThat(partition.get("crc32c").asText()).as("partition %d", p).isEqualTo(Crc32c.hex(crc.getValue()));
        }
        // the source differs from partition to partition: equal checksums mean equal values, not equal zeros
        assertThat(partitions.get(0).get("crc32c").asText())
                .isNotEqualTo(partitions.get(1).get("crc32c").asText());
    }

    /** A dataset read in slices by the tasks gives the same checksums as the same dataset shipped whole. */
    @Test
    void readsADatasetInSlicesAsTheWritersDo() throws Exception {
        Path table = dev.tensorbroadcast.arrowio.source.KeptFixtures.copy("parquet", dir.resolve("table"));
        List<String> args = List.of(
                "expand",
                "--input",
                table.toString(),
                "--column",
                "features",
                "--row-shape",
                "[1,8]",
                "--dialect",
                "pytorch",
                "--shape",
                "[-1,3,8]",
                "--partitions",
                "4",
                "--format",
                "null",
                "--json",
                "--ship-threshold");

        CliRun shipped = CliRun.of(java.util.stream.Stream.concat(args.stream(), java.util.stream.Stream.of("64m"))
                .toArray(String[]::new));
        CliRun sliced = CliRun.of(java.util.stream.Stream.concat(args.stream(), java.util.stream.Stream.of("0"))
                .toArray(String[]::new));

        assertThat(sliced.exitCode()).as(sliced.err()).isZero();
        assertThat(shipped.exitCode()).as(shipped.err()).isZero();
        assertThat(sliced.json().get("partitions"))
                .hasSize(4)
                .isEqualTo(shipped.json().get("partitions"));
        assertThat(sliced.json().get("bytes").asLong()).isEqualTo(600 * 3 * 8 * 4);
    }

    @Test
    void saysWhatItComputedAndWritesNothing() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 8});
        CliRun run = CliRun.of(expand(source, "--format", "null").toArray(String[]::new));
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).isEqualTo("computing [3,50,8] int32 (4.7 KiB) in 3 partitions and discarding it\n");
        assertThat(run.out())
                .startsWith(
                        "computed and discarded [3,50,8] int32: 3 rows, 4.7 KiB of values in 3" + " partitions, in ");
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactly(source);
        }
    }

    /** A zero-size output is one empty partition, said in the singular: "1 partitions" was said before. */
    @Test
    void anEmptyOutputIsOnePartitionOfNoRows() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("empty.npy"), new long[] {0, 1});
        CliRun run = CliRun.of(
                "expand", "--input", source.toString(), "--dialect", "numpy", "--shape", "[0,4]", "--format", "null");
        CliRun one = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "[0,4]",
                "--format",
                "null",
                "--json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).isEqualTo("computing [0,4] int32 (0 B) in 1 partition and discarding it\n");
        assertThat(run.out())
                .startsWith("computed and discarded [0,4] int32: 0 rows, 0 B of values in 1 partition," + " in ");
        JsonNode json = one.json();
        assertThat(json.get("rows").asLong()).isZero();
        assertThat(json.get("partitions"))
                .singleElement()
                .satisfies(
                        partition -> assertThat(partition.get("rows").asLong()).isZero());
    }

    @Test
    void refusesAnOutputAndNeedsOneForFiles() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 8});
        CliRun withOutput = CliRun.of(
                expand(source, "--format", "null", "--output", dir.resolve("x").toString())
                        .toArray(String[]::new));
        assertThat(withOutput.exitCode()).isNotZero();
        assertThat(withOutput.err())
                .startsWith("Cannot use --output with --format null: the null sink writes no"
                        + " files; drop --output, or give --format arrow or parquet");
        CliRun nested = CliRun.of(
                expand(source, "--format", "null", "--row-layout", "nested").toArray(String[]::new));
        assertThat(nested.exitCode()).isEqualTo(2);
        assertThat(nested.err())
                .startsWith("Cannot use --row-layout nested with --format null: the null sink writes"
                        + " no files; drop --row-layout");
        CliRun withoutOutput = CliRun.of(expand(source).toArray(String[]::new));
        assertThat(withoutOutput.exitCode()).isNotZero();
        assertThat(withoutOutput.err()).startsWith("Missing required option: '--output=<dir>'");
        assertThat(dir.resolve("x")).doesNotExist();
    }
}
