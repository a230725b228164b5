package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tensorbroadcast.job.commit.DatasetIndex;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.pipeline.DatasetFiles;
import dev.tensorbroadcast.job.pipeline.LocalSpark;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code expand} and {@code broadcast-tensors} in-process, on the test class's Spark session (the CLI reuses it). */
class ExpandCommandTest {
    private static SparkSession spark;

    @TempDir
    Path dir;

    private Path source;

    @BeforeAll
    static void startSpark() {
        spark = LocalSpark.start();
    }

    @AfterAll
    static void stopSpark() {
        spark.stop();
    }

    @BeforeEach
    void writeSource() throws Exception {
        source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 8});
    }

    private CliRun expand(Path output, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "6,8",
                "--output",
                output.toString()));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    @Test
    void writesADatasetAndSaysWhatItWrote() throws Exception {
        Path output = dir.resolve("out");
        CliRun run = expand(output, "--partitions", "2");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err())
                .isEqualTo("writing [6,8] int32 (192 B) in 2 arrow files to file:" + output + "\n"
                        + "to read it: pyarrow.dataset.dataset('" + output + "', format='arrow'), or polars.scan_ipc('"
                        + output
                        + "/*.arrow') (the directory also holds _manifest.json and _SUCCESS)\n");
        assertThat(run.out())
                .startsWith("wrote file:" + output + ": 6 rows of [8] int32 in 2 arrow files: ")
                .contains(" on disk, 192 B of values, in ")
                .endsWith(" of values)\n");
        Manifest manifest = DatasetFiles.manifest(output);
        assertThat(manifest.request()).containsEntry("dialect", "numpy").containsEntry("shape", "[6,8]");
        assertThat(manifest.inputs())
                .singleElement()
                .isEqualTo(new Manifest.ManifestInput("file:" + source, List.of(1L, 8L), "int32"));
        assertThat(DatasetFiles.arrowRows(output, manifest))
                .hasSize(6)
                .allSatisfy(row -> assertThat(row.values()).containsExactly(3, 10, 17, 24, 31, 38, 45, 52));
    }

    /**
     * After a Parquet write, the line that reads it: pyarrow's call on the directory, and the files' glob for the
     * readers that take the directory's _manifest.json and _SUCCESS for data; Hugging Face datasets only for nested
     * rows, the one layout it reads (issue 43).
     */
    @Test
    void aParquetWriteSaysHowToReadIt() throws Exception {
        Path flat = dir.resolve("flat");
        Path nested = dir.resolve("nested");

        CliRun flatRun = expand(flat, "--format", "parquet");
        CliRun nestedRun = expand(nested, "--format", "parquet", "--row-layout", "nested");

        assertThat(flatRun.exitCode()).as(flatRun.err()).isZero();
        assertThat(flatRun.err().lines().toList())
                .last()
                .isEqualTo("to read it: pyarrow.parquet.read_table('" + flat
                        + "'), or '" + flat
                        + "/*.parquet' in polars and DuckDB (the directory also holds _manifest.json"
                        + " and _SUCCESS)");
        assertThat(nestedRun.exitCode()).as(nestedRun.err()).isZero();
        assertThat(nestedRun.err().lines().toList())
                .last()
                .isEqualTo("to read it: pyarrow.parquet.read_table('"
                        + nested + "'), or '" + nested + "/*.parquet' in polars, DuckDB and Hugging Face datasets (the"
                        + " directory also holds _manifest.json and _SUCCESS)");
        // --json's stdout is the result alone, and nothing more goes to stderr
        CliRun json = expand(dir.resolve("json"), "--format", "parquet", "--json");
        assertThat(json.err()).doesNotContain("to read it");
    }

    /**
     * The manifest names the input by its qualified URI, not as typed: a relative path said nothing once the dataset
     * was read from elsewhere (issue 43).
     */
    @Test
    void theManifestNamesARelativeInputByItsQualifiedUri() throws Exception {
        Path output = dir.resolve("out");
        Path relative = Path.of("").toAbsolutePath().relativize(source);
        assertThat(relative.isAbsolute()).isFalse();

        CliRun run = CliRun.of(
                "expand",
                "--input",
                relative.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "6,8",
                "--output",
                output.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(DatasetFiles.manifest(output).inputs())
                .singleElement()
                .extracting(Manifest.ManifestInput::path)
                .isEqualTo("file:" + source.toAbsolutePath());
    }

    /** [0,1] to [0,4] (issue 24: "internal error: ... Cannot trace rows: 0 source rows"): an empty dataset. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"arrow", "parquet"})
    void aZeroSizeSourceGivesAReadableEmptyDataset(String format) throws Exception {
        Path empty = NpyFiles.int32(dir.resolve("empty.npy"), new long[] {0, 1});
        Path output = dir.resolve("out");

        CliRun run = CliRun.of(
                "expand",
                "--input",
                empty.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "[0,4]",
                "--output",
                output.toString(),
                "--format",
                format);

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).startsWith("wrote file:" + output + ": 0 rows of [4] int32 in 1 " + format + " file: ");
        Manifest manifest = DatasetFiles.manifest(output);
        assertThat(manifest.files())
                .singleElement()
                .satisfies(file -> assertThat(file.rows()).isZero());
        DatasetFiles.checkFiles(output, manifest);
        CliRun verify = CliRun.of("verify", output.toString(), "--source", empty.toString());
        assertThat(verify.exitCode()).as(verify.out()).isZero();
        assertThat(verify.out()).startsWith("OK: ");
        CliRun inspect = CliRun.of("inspect", output.toString());
        assertThat(inspect.out())
                .contains("complete      yes\n")
                .contains("shape         (0,4)\n")
                .contains("rows          0 x (4,)\n");
        if (format.equals("parquet")) {
            assertThat(spark.read().parquet(output.toString()).count()).isZero();
        } else {
            assertThat(DatasetFiles.arrowRows(output, manifest)).isEmpty();
        }
    }

    @Test
    void readsArrowInputsByTheirBytesNotTheirName() throws Exception {
        Path first = dir.resolve("first");
        assertThat(expand(first).exitCode()).isZero();
        // an Arrow IPC file named like something else: its index and tensor columns give shape [6,8]
        Path disguised = Files.copy(first.resolve("part-00000.arrow"), dir.resolve("tensor.bin"));
        Path output = dir.resolve("second");
        CliRun run = CliRun.of(
                "expand",
                "--input",
                disguised.toString(),
                "--dialect",
                "pytorch",
                "--shape",
                "2,-1,-1",
                "--output",
                output.toString(),
                "--format",
                "parquet",
                "--compression",
                "zstd",
                "--json");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.json().get("shape").toString()).isEqualTo("[2,6,8]");
        assertThat(run.json().get("format").asText()).isEqualTo("parquet");
        assertThat(run.err()).isEmpty();
        assertThat(spark.read().parquet(output.toString()).count()).isEqualTo(2);
    }

    @Test
    void refusesAnExistingOutputWithoutOverwriteAndWritesNothing() throws Exception {
        Path output = Files.createDirectories(dir.resolve("taken"));
        Files.writeString(output.resolve("notes.txt"), "mine");
        CliRun run = expand(output);
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("Cannot write to '" + output + "': it already exists; choose a new path, or"
                        + " pass --overwrite to replace a dataset written by tensor-broadcast\n");
        assertThat(DatasetFiles.names(output)).containsExactly("notes.txt");
    }

    @Test
    void overwriteRefusesADirectoryThatIsNotOurs() throws Exception {
        Path output = Files.createDirectories(dir.resolve("theirs"));
        Files.writeString(output.resolve("notes.txt"), "mine");
        CliRun run = expand(output, "--overwrite");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo(notOurs(output));
        assertThat(DatasetFiles.names(output)).containsExactly("notes.txt");
    }

    @Test
    void overwriteRefusesAForeignFileEvenBesideAManifest() throws Exception {
        // a file named _manifest.json does not make a directory ours: "{}" is no manifest of ours
        Path fake = Files.createDirectories(dir.resolve("fake"));
        Files.writeString(fake.resolve("_manifest.json"), "{}");
        Files.writeString(fake.resolve("thesis.tex"), "mine");
        Files.createDirectories(fake.resolve("sub"));
        CliRun run = expand(fake, "--overwrite");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo(notOurs(fake));
        assertThat(DatasetFiles.names(fake)).containsExactlyInAnyOrder("_manifest.json", "thesis.tex", "sub");

        // nor does a real dataset of ours with someone's file added to it
        Path mixed = dir.resolve("mixed");
        assertThat(expand(mixed).exitCode()).isZero();
        Files.writeString(mixed.resolve("thesis.tex"), "mine");
        CliRun again = expand(mixed, "--overwrite");
        assertThat(again.exitCode()).isEqualTo(2);
        assertThat(again.err()).isEqualTo(notOurs(mixed));
        assertThat(DatasetFiles.names(mixed)).contains("thesis.tex", "_SUCCESS", "_manifest.json");
    }

    @Test
    void refusesAnOutputUnderAFile() throws Exception {
        Path output = source.resolve("sub").resolve("out");
        CliRun run = expand(output);
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("Cannot write to '" + output + "': file:" + source + " is a file, so nothing"
                        + " can be made under it; choose a path under a directory\n");
    }

    private static String notOurs(Path output) {
        return "Cannot overwrite '" + output + "': it is neither empty nor a tensor-broadcast dataset (it holds files"
                + " a tensor-broadcast job does not write, or a _manifest.json that is not ours); --overwrite only"
                + " replaces an empty directory or a tensor-broadcast dataset\n";
    }

    @Test
    void overwriteRefusesASymbolicLink() throws Exception {
        Path real = dir.resolve("real");
        assertThat(expand(real).exitCode()).isZero();
        Path link = Files.createSymbolicLink(dir.resolve("link"), real);
        CliRun run = expand(link, "--overwrite");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("Cannot write to '" + link + "': it is a symbolic link, which is never"
                        + " followed; give the directory itself or a new path\n");
        assertThat(DatasetFiles.names(real)).contains("_SUCCESS");
    }

    @Test
    void overwriteReplacesOneOfOurDatasets() throws Exception {
        Path output = dir.resolve("ours");
        assertThat(expand(output, "--partitions", "3").exitCode()).isZero();
        CliRun run = expand(output, "--overwrite", "--format", "parquet");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(DatasetFiles.names(output)).containsExactly("_SUCCESS", "_manifest.json", "part-00000.parquet");
    }

    @Test
    void refusesAMissingInput() {
        Path missing = dir.resolve("missing.npy");
        CliRun run = CliRun.of(
                "expand",
                "--input",
                missing.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "6,8",
                "--output",
                dir.resolve("out").toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("Cannot read input '" + missing + "': no such file or directory; give a .npy"
                        + ", Arrow IPC or Parquet file, or a directory of Arrow IPC or Parquet files\n");
        assertThat(Files.exists(dir.resolve("out"))).isFalse();
    }

    @Test
    void refusesABadRequestWithThePlannersMessage() {
        CliRun run = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "6,9",
                "--output",
                dir.resolve("out").toString(),
                "--json");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.json().get("error").get("kind").asText()).isEqualTo("incompatible_shapes");
        assertThat(run.json().get("error").get("message").asText()).startsWith("Cannot broadcast (1,8) to (6,9)");
        assertThat(Files.exists(dir.resolve("out"))).isFalse();
    }

    @Test
    void aFailedJobExitsWithOneAndWritesNoManifest() throws Exception {
        Path output = dir.resolve("failed");
        // InjectedFailure's hooks: every attempt of partition 0's task fails after writing its file
        spark.sparkContext().setLocalProperty("tensorbroadcast.test.failPartition", "0");
        spark.sparkContext().setLocalProperty("tensorbroadcast.test.failAttempts", "all");
        try {
            CliRun run = expand(output);
            assertThat(run.exitCode()).isEqualTo(1);
            assertThat(run.out()).isEmpty();
            assertThat(run.err().lines()).hasSize(2);
            assertThat(run.err())
                    .startsWith("writing [6,8] int32 (192 B) in 1 arrow file to file:" + output + "\n"
                            + "Cannot write 'file:" + output + "': the Spark job failed: ")
                    .contains("injected failure in partition 0, attempt ");
            // the job made the directory, and removes it again: nothing where there was nothing
            assertThat(output).doesNotExist();

            CliRun json = expand(dir.resolve("failed-json"), "--json");
            assertThat(json.exitCode()).isEqualTo(1);
            assertThat(json.json().get("error").get("kind").asText()).isEqualTo("job_failed");
        } finally {
            spark.sparkContext().setLocalProperty("tensorbroadcast.test.failPartition", null);
            spark.sparkContext().setLocalProperty("tensorbroadcast.test.failAttempts", null);
        }
    }

    @Test
    void refusesAnUnknownFormat() {
        CliRun run = expand(dir.resolve("out"), "--format", "csv");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("Cannot use format 'csv': expected arrow, parquet or zarr\n");
    }

    @Test
    void broadcastTensorsWritesOneDatasetPerInput() throws Exception {
        Path column = NpyFiles.int32(dir.resolve("column.npy"), new long[] {3, 1});
        Path output = dir.resolve("pair");
        CliRun run = CliRun.of(
                "broadcast-tensors",
                "--input",
                source.toString(),
                "--input",
                column.toString(),
                "--dialect",
                "paddle",
                "--output",
                output.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out().lines()).hasSize(2);
        assertThat(DatasetFiles.names(output)).containsExactly("0", "1", DatasetIndex.FILE_NAME);
        // the parent is no dataset: its index is a file directory readers do not skip, so they cannot merge 0 and 1
        JsonNode index = new ObjectMapper()
                .readTree(output.resolve(DatasetIndex.FILE_NAME).toFile());
        assertThat(index.path("tensor_broadcast").asText()).isEqualTo("datasets");
        assertThat(index.path("datasets").toString()).isEqualTo("[\"0\",\"1\"]");
        assertThat(index.path("read").asText())
                .isEqualTo("each directory listed is one dataset: read each by its own"
                        + " path; this directory is not a dataset");
        for (String input : List.of("0", "1")) {
            Manifest manifest = DatasetFiles.manifest(output.resolve(input));
            assertThat(manifest.shape()).isEqualTo(List.of(3L, 8L));
            assertThat(manifest.request()).containsEntry("input", input);
        }
        assertThat(DatasetFiles.arrowRows(output.resolve("1"), DatasetFiles.manifest(output.resolve("1")))
                        .get(2)
                        .values())
                .containsOnly(17);
        CliRun again = CliRun.of(
                "broadcast-tensors",
                "--input",
                source.toString(),
                "--input",
                column.toString(),
                "--dialect",
                "paddle",
                "--output",
                output.toString(),
                "--overwrite");
        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(DatasetFiles.names(output)).containsExactly("0", "1", DatasetIndex.FILE_NAME);
    }

    @Test
    void broadcastTensorsRefusesDialectsWithATargetShape() {
        CliRun run = CliRun.of(
                "broadcast-tensors",
                "--input",
                source.toString(),
                "--dialect",
                "onnx",
                "--output",
                dir.resolve("out").toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo(
                        "Cannot use dialect onnx with broadcast-tensors: expected numpy, pytorch or"
                                + " paddle, the dialects that broadcast inputs against each other; use expand for the others\n");
    }

    @Test
    void aBatchExpansionIsVerifiedAgainstItsDatasetSource() throws Exception {
        Path features = Files.createDirectories(dir.resolve("features"));
        dev.tensorbroadcast.arrowio.source.DatasetFixtures.arrowLists(
                features.resolve("a.arrow"), "tensor", 0, 4, false, 5, 5);
        Path output = dir.resolve("expanded");
        CliRun expand = CliRun.of(
                "expand",
                "--input",
                features.toString(),
                "--row-shape",
                "[1,4]",
                "--dialect",
                "pytorch",
                "--shape",
                "-1,3,4",
                "--output",
                output.toString());
        assertThat(expand.exitCode()).as(expand.err()).isZero();

        CliRun verify = CliRun.of("verify", output.toString(), "--source", features.toString(), "--row-shape", "[1,4]");
        assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
        assertThat(verify.out()).endsWith(", 120 values match the source\n");
    }

    /** The manifest records how the input was read, so verify --source needs neither --column nor --row-shape. */
    @Test
    void verifyReadsTheSourceWithTheColumnAndRowShapeTheManifestRecorded() throws Exception {
        Path features = Files.createDirectories(dir.resolve("features"));
        dev.tensorbroadcast.arrowio.source.DatasetFixtures.arrowLists(
                features.resolve("a.arrow"), "embedding", 0, 4, true, 5, 5);
        Path output = dir.resolve("expanded");
        CliRun expand = CliRun.of(
                "expand",
                "--input",
                features.toString(),
                "--column",
                "embedding",
                "--row-shape",
                "[1,4]",
                "--dialect",
                "pytorch",
                "--shape",
                "-1,3,4",
                "--output",
                output.toString());
        assertThat(expand.exitCode()).as(expand.err()).isZero();
        Manifest.ManifestInput input = DatasetFiles.manifest(output).inputs().get(0);
        assertThat(input.column()).isEqualTo("embedding");
        assertThat(input.rowShape()).containsExactly(1L, 4L);

        CliRun verify = CliRun.of("verify", output.toString(), "--source", features.toString());

        assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
        assertThat(verify.out()).endsWith(", 120 values match the source\n");
        // what is given still wins: a row shape that fits no row is refused as for expand
        CliRun given = CliRun.of("verify", output.toString(), "--source", features.toString(), "--row-shape", "[2,4]");
        assertThat(given.exitCode()).isEqualTo(ExitCode.REFUSED);
        assertThat(given.err()).contains("row 0 has 4 values; every row needs 8 (--row-shape [2,4])");
    }

    /**
     * Nested Parquet rows: the manifest says so, and what reads our datasets (verify against the source, inspect,
     * export, and a further expand that takes the dataset as its input) reads them as the flat ones.
     */
    @Test
    void nestedParquetRowsAreVerifiedInspectedExportedAndReadBack() throws Exception {
        Path column = NpyFiles.int32(dir.resolve("col.npy"), new long[] {3, 1});
        Path output = dir.resolve("nested");
        CliRun expand = CliRun.of(
                "expand",
                "--input",
                column.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "5,3,4",
                "--format",
                "parquet",
                "--row-layout",
                "nested",
                "--output",
                output.toString(),
                "--json");
        assertThat(expand.exitCode()).as(expand.err()).isZero();
        assertThat(expand.json().get("row_layout").asText()).isEqualTo("nested");
        assertThat(DatasetFiles.manifest(output).rowLayout()).isEqualTo(Manifest.NESTED_ROWS);
        assertThat(spark.read().parquet(output.toString()).schema().simpleString())
                .isEqualTo("struct<index:bigint,tensor:array<array<int>>>");

        CliRun verify = CliRun.of("verify", output.toString(), "--source", column.toString());
        assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
        assertThat(verify.out()).endsWith(", 60 values match the source\n");
        CliRun inspect = CliRun.of("inspect", output.toString());
        assertThat(inspect.out()).contains("format        parquet, compression none, nested rows\n");

        Path npy = dir.resolve("nested.npy");
        CliRun export = CliRun.of("export", output.toString(), "--npy", npy.toString());
        assertThat(export.exitCode()).as(export.err()).isZero();
        // the column [3,10,17] (NpyFiles' values) repeated along the rows and the last dim
        java.nio.ByteBuffer values =
                java.nio.ByteBuffer.wrap(Files.readAllBytes(npy)).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        int data = (int) Files.size(npy) - 60 * 4;
        for (int e = 0; e < 60; e++) {
            assertThat(values.getInt(data + 4 * e)).as("element %d", e).isEqualTo(3 + 7 * ((e / 4) % 3));
        }

        Path again = dir.resolve("again");
        CliRun reread = CliRun.of(
                "expand",
                "--input",
                output.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "2,5,3,4",
                "--output",
                again.toString());
        assertThat(reread.exitCode()).as(reread.err()).isZero();
        CliRun verifyAgain = CliRun.of("verify", again.toString(), "--source", output.toString());
        assertThat(verifyAgain.out()).endsWith(", 120 values match the source\n");
    }

    @Test
    void refusesNestedRowsForArrowOutputAndWritesNothing() {
        Path output = dir.resolve("arrow-nested");
        CliRun run = expand(output, "--row-layout", "nested");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("Cannot use --row-layout nested with format arrow: Arrow IPC rows are"
                        + " arrow.fixed_shape_tensor, which keeps their shape; nested rows are for Parquet readers (Spark,"
                        + " DuckDB, polars); add --format parquet\n");
        assertThat(output).doesNotExist();
        CliRun unknown = expand(output, "--format", "parquet", "--row-layout", "deep");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err()).isEqualTo("Cannot use row layout 'deep': expected flat or nested\n");
        assertThat(output).doesNotExist();
    }
}
