package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tensorbroadcast.arrowio.source.DatasetFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code plan --input <dir>}: a dataset's strategy and the bytes each task reads, from footers alone. */
class PlanDatasetTest {
    @TempDir
    Path dir;

    private Path features() throws Exception {
        Path features = Files.createDirectory(dir.resolve("features"));
        DatasetFixtures.arrowLists(features.resolve("a.arrow"), "tensor", 0, 64, false, 50, 50);
        DatasetFixtures.arrowLists(features.resolve("b.arrow"), "tensor", 100, 64, false, 100);
        return features;
    }

    @Test
    void aDatasetOverTheThresholdIsReadInSlices() throws Exception {
        Path features = features();
        CliRun run = CliRun.of(
                "plan",
                "--dialect",
                "pytorch",
                "--input",
                features.toString(),
                "--row-shape",
                "[1,64]",
                "--shape",
                "-1,8,64",
                "--partitions",
                "4",
                "--ship-threshold",
                "16k",
                "--json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(run.out());
        assertThat(CliRun.longs(json.get("shape"))).containsExactly(200, 8, 64);
        JsonNode source = json.get("source");
        assertThat(source.get("strategy").asText()).isEqualTo("slices");
        assertThat(source.get("files").asLong()).isEqualTo(2);
        assertThat(source.get("rows").asLong()).isEqualTo(200);
        assertThat(source.get("value_bytes").asLong()).isEqualTo(200 * 64 * 4);
        assertThat(source.get("ship_threshold").asLong()).isEqualTo(16 << 10);
        // partitions of 50 rows: one batch of a.arrow each, or all of b.arrow's one batch of 100 rows
        long batch = source.get("task_read_bytes").get("min").asLong();
        assertThat(batch).isGreaterThan(50 * 64 * 4);
        assertThat(source.get("task_read_bytes").get("max").asLong()).isGreaterThan(100 * 64 * 4);
    }

    @Test
    void theColumnsExpandWouldKeepAreListedAndRefusedAlike() throws Exception {
        Path table = dev.tensorbroadcast.arrowio.source.KeptFixtures.copy("parquet", dir.resolve("table"));
        String[] base = {
            "plan",
            "--dialect",
            "pytorch",
            "--input",
            table.toString(),
            "--column",
            "features",
            "--row-shape",
            "[1,8]",
            "--shape",
            "-1,3,8"
        };

        CliRun kept = CliRun.of(concat(base, "--keep", "user_id,seen"));
        CliRun json = CliRun.of(concat(base, "--keep", "user_id", "--json"));
        CliRun refused = CliRun.of(base);

        assertThat(kept.exitCode()).as(kept.err()).isZero();
        assertThat(kept.out()).contains("\nkept columns  user_id int64, seen timestamp[us, UTC]\n");
        JsonNode columns = new ObjectMapper().readTree(json.out()).get("kept_columns");
        assertThat(columns).hasSize(1);
        assertThat(columns.get(0).get("name").asText()).isEqualTo("user_id");
        assertThat(columns.get(0).get("type").asText()).isEqualTo("int64");
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.err()).startsWith("Cannot keep column 'tags' of input '" + table + "'");
        assertThat(CliRun.of(concat(base, "--keep", "none")).out()).doesNotContain("kept columns");
    }

    /** Row groups of 100 rows (fixtures/kept-columns): partitions of 20 KiB hold two each, and tasks read them alone. */
    @Test
    void partitionsOfADatasetReadInSlicesFollowItsRowGroups() throws Exception {
        Path table = dev.tensorbroadcast.arrowio.source.KeptFixtures.copy("parquet", dir.resolve("table"));
        Path output = dir.resolve("out");
        String[] request = {
            "--dialect",
            "pytorch",
            "--input",
            table.toString(),
            "--column",
            "features",
            "--row-shape",
            "[1,8]",
            "--shape",
            "-1,3,8",
            "--ship-threshold",
            "0",
            "--partition-size",
            "20k",
            "--keep",
            "none"
        };

        CliRun plan = CliRun.of(concat(new String[] {"plan"}, request));
        CliRun expand = CliRun.of(concat(concat(new String[] {"expand"}, request), "--output", output.toString()));

        assertThat(plan.out()).contains("\npartitions    3 of 200 rows, 18.8 KiB each\n");
        assertThat(expand.exitCode()).as(expand.err()).isZero();
        JsonNode files = new ObjectMapper()
                .readTree(output.resolve("_manifest.json").toFile())
                .get("files");
        assertThat(files).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertThat(files.get(i).get("first_row").asLong()).isEqualTo(200L * i);
            assertThat(files.get(i).get("source_read").get("first_row").asLong())
                    .isEqualTo(200L * i);
            assertThat(files.get(i).get("source_read").get("rows").asLong()).isEqualTo(200);
        }
        assertThat(CliRun.of(
                                "verify",
                                output.toString(),
                                "--source",
                                table.toString(),
                                "--column",
                                "features",
                                "--row-shape",
                                "[1,8]")
                        .exitCode())
                .isZero();
    }

    private static String[] concat(String[] base, String... more) {
        return java.util.stream.Stream.concat(java.util.Arrays.stream(base), java.util.Arrays.stream(more))
                .toArray(String[]::new);
    }

    @Test
    void aSmallDatasetIsShippedWhole() throws Exception {
        Path features = features();
        CliRun run = CliRun.of(
                "plan",
                "--dialect",
                "numpy",
                "--input",
                features.toString(),
                "--row-shape",
                "[1,64]",
                "--shape",
                "200,8,64");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out())
                .contains(
                        "source        dataset of 2 files, 200 rows, ",
                        "; shipped whole to every executor (50.0 KiB, up to the ship threshold of 64.0 MiB)\n",
                        "task reads    0 B of source files each\n");
    }

    @Test
    void aListDatasetWithoutARowShapeIsRefused() throws Exception {
        Path features = features();
        CliRun run = CliRun.of("plan", "--dialect", "numpy", "--input", features.toString(), "--shape", "200,8,64");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("Cannot read file:" + features.resolve("a.arrow") + ": column 'tensor' is a"
                        + " list of float32 whose length the file does not fix; give the shape of one row with --row-shape"
                        + " (such as [1,64])\n");
    }

    @Test
    void oneParquetFileIsADatasetOfOneFile() throws Exception {
        Path file = DatasetFixtures.duckdbLists(dir.resolve("features.parquet"), 0, 30, 4, false);
        CliRun run = CliRun.of(
                "plan",
                "--dialect",
                "numpy",
                "--input",
                file.toString(),
                "--row-shape",
                "[1,4]",
                "--shape",
                "30,3,4",
                "--json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(run.out());
        assertThat(CliRun.longs(json.get("shape"))).containsExactly(30, 3, 4);
        assertThat(json.get("source").get("files").asLong()).isEqualTo(1);
        assertThat(json.get("source").get("rows").asLong()).isEqualTo(30);
    }

    @Test
    void theColumnIsChosenWithTheOptionTheErrorNames() throws Exception {
        Path features = Files.createDirectory(dir.resolve("table"));
        DatasetFixtures.sql("COPY (SELECT i AS user_id, [CAST(i AS FLOAT) FOR k IN range(4)] AS features FROM"
                + " range(0, 20) t(i) ORDER BY i) TO '" + features.resolve("a.parquet") + "' (FORMAT PARQUET)");
        CliRun without = CliRun.of(
                "plan",
                "--dialect",
                "numpy",
                "--input",
                features.toString(),
                "--row-shape",
                "[1,4]",
                "--shape",
                "20,2,4");
        assertThat(without.exitCode()).isEqualTo(2);
        assertThat(without.err()).contains("choose one with --column");

        CliRun with = CliRun.of(
                "plan",
                "--dialect",
                "numpy",
                "--input",
                features.toString(),
                "--column",
                "features",
                "--row-shape",
                "[1,4]",
                "--shape",
                "20,2,4",
                "--json");
        assertThat(with.exitCode()).as(with.err()).isZero();
        assertThat(CliRun.longs(with.json().get("shape"))).containsExactly(20, 2, 4);
    }
}
