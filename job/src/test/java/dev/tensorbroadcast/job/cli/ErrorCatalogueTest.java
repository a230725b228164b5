package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tensorbroadcast.arrowio.format.RowLayout;
import dev.tensorbroadcast.arrowio.source.DatasetFixtures;
import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.planner.BroadcastException;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.TargetShape;
import dev.tensorbroadcast.planner.TooLargeException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code docs/errors.md}, checked: every entry there has a case here that makes the command line print exactly the
 * documented line (with {@code {dir}} standing for a scratch directory and {@code {any}} for text the environment
 * decides), with the documented kind and exit code; or names the test elsewhere that does. None of these runs starts
 * Spark.
 */
class ErrorCatalogueTest {
    private static final Path CATALOGUE = Path.of("..", "docs", "errors.md");
    private static final Pattern ENTRY = Pattern.compile(
            "^### `([a-z0-9-]+)`\\R+kind `([a-z_]+)` · exit (\\d)([^\\n]*)\\R+```text\\R(.*?)\\R```",
            Pattern.MULTILINE | Pattern.DOTALL);
    private static final Pattern ELSEWHERE = Pattern.compile(
            "^### `([a-z0-9-]+)`\\R+kind `([a-z_]+)` · exit (\\d)"
                    + "[^\\n]*\\R+Tested by `([A-Za-z0-9]+)#([A-Za-z0-9]+)`",
            Pattern.MULTILINE);
    /** 2^36 rows of 8 int32: 2 TiB of values. */
    private static final String TWO_TIB = "68719476736,8";

    @TempDir
    static Path dir;

    /** A documented error: the line printed, its kind and exit code. */
    record Entry(String id, String kind, int exitCode, String appliesTo, String message) {}

    /** An option a message tells the user to give: {@code --shape}; not one it quotes back, {@code '--shpae'}. */
    private static final Pattern OPTION = Pattern.compile("(?<!')--[a-z][a-z-]*[a-z]");
    /** An entry tested elsewhere, where it applies, and the line its prose shows: {@code The line is `...`}. */
    private static final Pattern ELSEWHERE_LINE = Pattern.compile(
            "^### `([a-z0-9-]+)`\\R+kind `[a-z_]+` · exit"
                    + " [^·\\n]*·([^\\n]*)\\R+Tested by `[^`]+`\\R+The line is `([^`]+)`",
            Pattern.MULTILINE);
    /** A subcommand an entry lists where it applies: the first word of a code span, {@code `plan --input`}. */
    private static final Pattern SUBCOMMAND = Pattern.compile("`([a-z-]+)");

    /** How to make the command line print an entry's error: files to prepare, then the arguments. */
    interface Case {
        String[] args(Path dir) throws IOException;
    }

    /** Entries whose error only a running Spark job, or a fault no input causes, can produce: tested there. */
    private static final Map<String, String> ELSEWHERE_TESTS = Map.ofEntries(
            Map.entry("request-master", "BadMasterTest#refusesAMasterSparkCannotParse"),
            Map.entry("request-yarn-memory", "YarnContainerLimitsTest#anExecutorTooLargeNamesSparkExecutorMemory"),
            Map.entry("dataset-verify-source", "VerifyCommandTest#aSourceOfAnotherShapeIsRefused"),
            Map.entry("dataset-export-exists", "ExportCommandTest#incompleteDatasetsAndExistingFilesAreRefused"),
            Map.entry("dataset-export-nulls", "ExportCommandTest#nullsAreRefusedWithTheirCountAndNoFileIsLeft"),
            Map.entry("job-failed", "ExpandCommandTest#aFailedJobExitsWithOneAndWritesNoManifest"),
            Map.entry("output-demo-source", "DemoCommandTest#keepsAFileOfTheUsersAtTheSourcePath"),
            Map.entry("internal", "PlanErrorTest#internalErrorsExitWithOne"),
            Map.entry("reduce-sum-range", "ReduceCommandTest#aSumOutsideItsDtypeIsOneLine"),
            Map.entry("output-locked", "ConcurrentWriterTest#aSecondWriterIsRefusedWhileTheFirstHoldsTheOutput"),
            Map.entry("interrupted", "InterruptIT#aSignalMidJobIsOneLineAndLeavesWhatOverwriteReplaces"),
            Map.entry("request-keep", "KeptColumnsCommandTest#mistakesInKeepAreNamedInOneLine"),
            Map.entry("request-keep-type", "KeptColumnsCommandTest#aListColumnIsRefusedByDefaultWithTheKeepThatWorks"),
            Map.entry("request-partition-by", "PartitionByCommandTest#aKeyThatIsNoColumnIsRefusedNamingTheColumns"),
            Map.entry(
                    "request-partition-by-key",
                    "PartitionByCommandTest#aColumnOfTheFilesIsRefusedNamingThePartitionKeys"),
            Map.entry(
                    "request-partition-by-runs",
                    "PartitionByCommandTest#anInnerKeyAloneIsRefusedNamingTheRowThatBreaksItsRun"),
            Map.entry("output-not-writable", "ReadOnlyOutputTest#anUnwritableDirectoryIsRefusedBeforeSparkStarts"),
            Map.entry("source-row-length", "RowShapeCheckTest#aBadRowFurtherOnIsFoundByItsTaskAndSaidInOneLine"),
            Map.entry("output-no-bucket", "S3StorageIT#aBucketThatDoesNotExistIsOneLineBeforeSparkRuns"),
            Map.entry("dataset-no-bucket", "S3StorageIT#aBucketThatDoesNotExistIsOneLineBeforeSparkRuns"),
            Map.entry("output-s3-refused", "S3CredentialsAndFaultsIT#wrongKeysAreOneLineBeforeSparkStarts"),
            Map.entry(
                    "output-s3-read-only",
                    "S3CredentialsAndFaultsIT#aReadOnlyBucketIsOneLineAndLeavesTheDatasetAsItWas"),
            Map.entry("job-s3-gone", "S3CredentialsAndFaultsIT#aServerStoppedMidJobIsOneLineExitOneAndNoDataset"),
            Map.entry(
                    "job-lock-left", "S3CredentialsAndFaultsIT#aServerStoppedAfterSuccessIsOneLineNamingTheLockLeft"));

    private static Map<String, Case> cases() {
        Map<String, Case> cases = new LinkedHashMap<>();
        cases.put("usage-unknown-option", d -> args("plan", "--dialect", "numpy", "--input-shape", "2", "--bogus"));
        cases.put("usage-missing-option", d -> args("plan", "--input-shape", "2"));
        cases.put("usage-typo", d -> args("plan", "--dialect", "numpy", "--input-shape", "2", "--shpae", "2,3"));
        cases.put(
                "usage-unquoted-shape",
                d -> args("plan", "--dialect", "numpy", "--input-shape", "2", "--shape", "[2,", "3]"));
        cases.put("usage-missing-subcommand", d -> args());
        cases.put(
                "usage-exclusive-options",
                d -> args(
                        "plan",
                        "--dialect",
                        "numpy",
                        "--input-shape",
                        "2",
                        "--partitions",
                        "2",
                        "--partition-size",
                        "1m"));
        cases.put(
                "usage-not-a-number",
                d -> args("plan", "--dialect", "numpy", "--input-shape", "2", "--partitions", "many"));
        cases.put("usage-plan-input", d -> args("plan", "--dialect", "numpy"));
        cases.put(
                "usage-option-unused",
                d -> args(
                        "expand",
                        "--input",
                        source(d),
                        "--dialect",
                        "numpy",
                        "--shape",
                        "6,8",
                        "--format",
                        "null",
                        "--encoding",
                        "plain"));
        cases.put("request-dialect", d -> args("plan", "--dialect", "tensorflow", "--input-shape", "2,3"));
        cases.put("request-shape", d -> args("plan", "--dialect", "numpy", "--input-shape", "2,a"));
        cases.put("request-dtype", d -> args("plan", "--dialect", "numpy", "--input-shape", "2", "--dtype", "float8"));
        cases.put(
                "request-mode",
                d -> args(
                        "plan", "--dialect", "openvino", "--mode", "sideways", "--input-shape", "3", "--shape", "2,3"));
        cases.put(
                "request-dialect-rule",
                d -> args("plan", "--dialect", "numpy", "--input-shape", "3", "--shape", "-1,3"));
        cases.put(
                "request-axes",
                d -> args(
                        "plan",
                        "--dialect",
                        "ngraph",
                        "--input-shape",
                        "3",
                        "--shape",
                        "2,3",
                        "--broadcast-axes",
                        "0,a"));
        cases.put(
                "request-partition-size",
                d -> args("plan", "--dialect", "numpy", "--input-shape", "3", "--partition-size", "12q"));
        cases.put(
                "request-partitions",
                d -> args("plan", "--dialect", "numpy", "--input-shape", "3", "--partitions", "0"));
        cases.put("request-format", d -> expand(d, "6,8", "--format", "csv"));
        cases.put("request-compression", d -> expand(d, "6,8", "--compression", "brotli"));
        cases.put("request-compression-gzip", d -> expand(d, "6,8", "--compression", "gzip", "--format", "parquet"));
        cases.put("request-compression-level", d -> expand(d, "6,8", "--compression", "zstd:99"));
        cases.put("request-encoding", d -> expand(d, "6,8", "--encoding", "byte-stream-split"));
        cases.put("request-row-layout", d -> expand(d, "6,8", "--row-layout", "nested"));
        cases.put("request-chunks", d -> expand(d, "6,8", "--format", "zarr", "--chunks", "4,x"));
        cases.put("request-shard", d -> expand(d, "6,8", "--format", "zarr", "--chunks", "2,4", "--shard", "3,8"));
        cases.put("request-zarr", d -> {
            Path input = d.resolve("bf16");
            dev.tensorbroadcast.job.dataset.TestDatasets.write(
                    input,
                    dev.tensorbroadcast.job.dataset.TestDatasets.random(
                            dev.tensorbroadcast.planner.DType.BFLOAT16,
                            dev.tensorbroadcast.planner.Shape.of(3),
                            5,
                            false),
                    new long[] {2, 3},
                    "arrow",
                    1);
            return args(
                    "expand",
                    "--input",
                    input.toString(),
                    "--dialect",
                    "numpy",
                    "--shape",
                    "4,2,3",
                    "--format",
                    "zarr",
                    "--output",
                    d.resolve("out").toString());
        });
        cases.put("request-max-output", d -> expand(d, "6,8", "--max-output", "lots"));
        cases.put(
                "request-broadcast-tensors",
                d -> args(
                        "broadcast-tensors",
                        "--input",
                        source(d),
                        "--dialect",
                        "onnx",
                        "--output",
                        d.resolve("out").toString()));
        cases.put(
                "incompatible-shapes",
                d -> args("plan", "--dialect", "numpy", "--input-shape", "2,3", "--shape", "4,3"));
        cases.put(
                "too-large-count",
                d -> args("plan", "--dialect", "numpy", "--input-shape", "1", "--shape", "4611686018427387904,4"));
        cases.put("too-large-output", d -> expand(d, TWO_TIB));
        cases.put(
                "too-large-tasks",
                d -> args(
                        "expand",
                        "--input",
                        source(d),
                        "--dialect",
                        "numpy",
                        "--shape",
                        "10000000,8",
                        "--partitions",
                        "10000000",
                        "--format",
                        "null"));
        cases.put("source-unknown-format", d -> {
            Files.writeString(d.resolve("notes.txt"), "not a tensor\n");
            return args(
                    "plan",
                    "--dialect",
                    "numpy",
                    "--input",
                    d.resolve("notes.txt").toString());
        });
        cases.put("source-npy-truncated", d -> {
            Path npy = NpyFiles.int32(d.resolve("cut.npy"), new long[] {4, 4});
            byte[] bytes = Files.readAllBytes(npy);
            Files.write(npy, Arrays.copyOf(bytes, bytes.length - 4));
            return args("plan", "--dialect", "numpy", "--input", npy.toString());
        });
        cases.put(
                "source-npy-dtype",
                d -> args(
                        "plan",
                        "--dialect",
                        "numpy",
                        "--input",
                        NpyFiles.write(d.resolve("objects.npy"), "|O", new long[] {1}, new byte[8])
                                .toString()));
        cases.put(
                "source-heap-limit",
                d -> args(
                        "plan",
                        "--dialect",
                        "numpy",
                        "--input",
                        NpyFiles.write(d.resolve("huge.npy"), "<f8", new long[] {1L << 28}, new byte[8])
                                .toString()));
        cases.put("source-arrow-column", d -> {
            Path arrow = d.resolve("tensors.arrow");
            try (InputStream in = ErrorCatalogueTest.class.getResourceAsStream("/fixtures/arrow/tensors.arrow")) {
                Files.write(arrow, in.readAllBytes());
            }
            return args(
                    "expand",
                    "--input",
                    arrow.toString(),
                    "--column",
                    "weights",
                    "--dialect",
                    "numpy",
                    "--output",
                    d.resolve("out").toString());
        });
        cases.put(
                "input-missing",
                d -> args(
                        "plan",
                        "--dialect",
                        "numpy",
                        "--input",
                        d.resolve("missing.npy").toString()));
        cases.put("input-directory", d -> args("plan", "--dialect", "numpy", "--input", d.toString()));
        cases.put("input-datasets", d -> {
            Path pair = Files.createDirectories(d.resolve("pair"));
            Files.createDirectories(pair.resolve("1"));
            Files.createDirectories(pair.resolve("0"));
            Files.writeString(pair.resolve("datasets.json"), "{\"tensor_broadcast\": \"datasets\"}");
            return args("plan", "--dialect", "numpy", "--input", pair.toString());
        });
        cases.put("request-conf-hadoop", d -> args("inspect", d.toString(), "--conf", "spark.executor.memory=1g"));
        cases.put("input-partitions", d -> {
            Path table = DatasetFixtures.arrowLists(
                            Files.createDirectories(d.resolve("table/day=2024-01-02/region=eu"))
                                    .resolve("a.arrow"),
                            "tensor",
                            0,
                            4,
                            false,
                            3)
                    .getParent()
                    .getParent()
                    .getParent();
            Files.writeString(table.resolve("day=2024-01-02").resolve("notes.txt"), "mine");
            return args("plan", "--dialect", "numpy", "--input", table.toString());
        });
        cases.put("input-unreadable-file", d -> {
            Path table = Files.createDirectories(d.resolve("table"));
            DatasetFixtures.arrowLists(table.resolve("a.arrow"), "tensor", 0, 4, false, 3);
            Files.writeString(table.resolve("notes.txt"), "mine");
            return args("plan", "--dialect", "numpy", "--input", table.toString(), "--row-shape", "[4]");
        });
        cases.put("input-zarr-unsupported", d -> {
            Path zarr = Files.createDirectories(d.resolve("t.zarr"));
            Files.writeString(
                    zarr.resolve("zarr.json"),
                    "{\"zarr_format\": 3, \"node_type\": \"array\","
                            + " \"shape\": [4, 6], \"data_type\": \"int32\", \"chunk_grid\": {\"name\": \"regular\","
                            + " \"configuration\": {\"chunk_shape\": [2, 3]}}, \"chunk_key_encoding\": {\"name\":"
                            + " \"default\"}, \"fill_value\": 0, \"codecs\": [{\"name\": \"transpose\","
                            + " \"configuration\": {\"order\": [1, 0]}}, {\"name\": \"bytes\"}]}");
            return args(
                    "expand",
                    "--input",
                    zarr.toString(),
                    "--dialect",
                    "numpy",
                    "--shape",
                    "2,4,6",
                    "--output",
                    d.resolve("out").toString());
        });
        cases.put("input-scheme", d -> args("plan", "--dialect", "numpy", "--input", "nosuch://host/x.npy"));
        cases.put("input-empty", d -> args("plan", "--dialect", "numpy", "--input", " "));
        cases.put("output-exists", d -> {
            Files.createDirectories(d.resolve("out"));
            Files.writeString(d.resolve("out").resolve("notes.txt"), "mine");
            return expand(d, "6,8");
        });
        cases.put("output-not-ours", d -> {
            Files.createDirectories(d.resolve("out"));
            Files.writeString(d.resolve("out").resolve("notes.txt"), "mine");
            return expand(d, "6,8", "--overwrite");
        });
        cases.put("output-file", d -> {
            Files.writeString(d.resolve("out"), "mine");
            return expand(d, "6,8", "--overwrite");
        });
        cases.put("output-symlink", d -> {
            Files.createDirectories(d.resolve("real"));
            Files.createSymbolicLink(d.resolve("out"), d.resolve("real"));
            return expand(d, "6,8", "--overwrite");
        });
        cases.put(
                "output-is-input",
                d -> args(
                        "expand",
                        "--input",
                        source(d),
                        "--dialect",
                        "numpy",
                        "--shape",
                        "6,8",
                        "--output",
                        d.toString(),
                        "--overwrite"));
        cases.put(
                "output-under-file",
                d -> args(
                        "expand",
                        "--input",
                        source(d),
                        "--dialect",
                        "numpy",
                        "--shape",
                        "6,8",
                        "--output",
                        d.resolve("row.npy").resolve("out").toString()));
        cases.put(
                "output-scheme",
                d -> args(
                        "expand",
                        "--input",
                        source(d),
                        "--dialect",
                        "numpy",
                        "--shape",
                        "6,8",
                        "--output",
                        "nosuch://host/out"));
        cases.put("output-free-space", d -> expand(d, "35184372088832,8", "--max-output", "none"));
        cases.put("manifest-malformed", d -> {
            Path dataset = Files.createDirectories(d.resolve("ds"));
            Files.writeString(dataset.resolve("_manifest.json"), "{\"format_version\": 1,");
            return args("inspect", dataset.toString());
        });
        cases.put("manifest-path-outside", d -> {
            Path dataset = Files.createDirectories(d.resolve("ds"));
            Files.writeString(dataset.resolve("_manifest.json"), manifest("../part-00000.arrow", 1));
            return args("inspect", dataset.toString());
        });
        cases.put("manifest-version", d -> {
            Path dataset = Files.createDirectories(d.resolve("ds"));
            Files.writeString(dataset.resolve("_manifest.json"), manifest("part-00000.arrow", 2));
            return args("verify", dataset.toString());
        });
        cases.put("dataset-missing", d -> args("inspect", d.resolve("nothing").toString()));
        cases.put("dataset-file", d -> args("verify", source(d)));
        cases.put(
                "dataset-not-a-dataset",
                d -> args("inspect", Files.createDirectories(d.resolve("empty")).toString()));
        cases.put("dataset-not-ours", d -> {
            Path foreign = Files.createDirectories(d.resolve("foreign"));
            DatasetFixtures.parquetJavaLists(foreign.resolve("features.parquet"), 0, 10, 4, false);
            return args("verify", foreign.toString());
        });
        cases.put("dataset-parent", d -> {
            Path pair = Files.createDirectories(d.resolve("pair"));
            Files.createDirectories(pair.resolve("1"));
            Files.createDirectories(pair.resolve("0"));
            Files.writeString(pair.resolve("datasets.json"), "{\"tensor_broadcast\": \"datasets\"}");
            return args("verify", pair.toString());
        });
        cases.put("dataset-incomplete", d -> {
            Path dataset = Files.createDirectories(d.resolve("ds"));
            Files.write(dataset.resolve("part-00000.arrow"), new byte[0]);
            return args(
                    "export", dataset.toString(), "--npy", d.resolve("x.npy").toString());
        });
        cases.put("source-row-shape", d -> {
            Path features = Files.createDirectories(d.resolve("features"));
            DatasetFixtures.arrowLists(features.resolve("a.arrow"), "tensor", 0, 32, false, 4);
            return args("plan", "--dialect", "numpy", "--input", features.toString(), "--row-shape", "[4,32]");
        });
        cases.put(
                "request-row-shape-npy",
                d -> args("plan", "--dialect", "numpy", "--input", source(d), "--row-shape", "1,8"));
        cases.put("source-parquet-corrupt", d -> {
            Path features = Files.createDirectories(d.resolve("features"));
            Path cut;
            try {
                DatasetFixtures.duckdbLists(features.resolve("a.parquet"), 0, 10, 4, false);
                cut = DatasetFixtures.duckdbLists(features.resolve("b.parquet"), 10, 20, 4, false);
            } catch (java.sql.SQLException e) {
                throw new IOException(e);
            }
            byte[] bytes = Files.readAllBytes(cut);
            Files.write(cut, Arrays.copyOf(bytes, bytes.length / 2));
            return args("plan", "--dialect", "numpy", "--input", features.toString(), "--row-shape", "[4]");
        });
        cases.put("reduce-gradient-shape", d -> reduce(d, "--input-shape", "1,8", "--shape", "5,8"));
        cases.put(
                "reduce-dtype",
                d -> args(
                        "reduce",
                        "--input",
                        NpyFiles.write(d.resolve("flags.npy"), "|b1", new long[] {2}, new byte[] {1, 0})
                                .toString(),
                        "--dialect",
                        "numpy",
                        "--input-shape",
                        "1",
                        "--shape",
                        "2",
                        "--output",
                        d.resolve("grad-out.npy").toString()));
        cases.put(
                "reduce-input-index",
                d -> reduce(d, "--input-shape", "6,1", "--input-shape", "8", "--input-index", "2"));
        cases.put(
                "reduce-npy-options",
                d -> reduce(d, "--input-shape", "1,8", "--shape", "6,8", "--compression", "zstd:9"));
        cases.put(
                "reduce-npy-dataset-format",
                d -> reduce(d, "--input-shape", "1,8", "--shape", "6,8", "--format", "parquet"));
        cases.put("reduce-npy-several", d -> reduce(d, "--input-shape", "6,1", "--input-shape", "8"));
        cases.put("reduce-npy-exists", d -> {
            Files.writeString(d.resolve("grad-out.npy"), "mine");
            return reduce(d, "--input-shape", "8", "--shape", "6,8");
        });
        cases.put(
                "reduce-npy-remote",
                d -> args(
                        "reduce",
                        "--input",
                        gradient(d),
                        "--dialect",
                        "numpy",
                        "--input-shape",
                        "8",
                        "--shape",
                        "6,8",
                        "--output",
                        "hdfs://namenode:8020/grad.npy"));
        return cases;
    }

    /** A (6,8) int32 gradient. */
    private static String gradient(Path d) throws IOException {
        return NpyFiles.int32(d.resolve("grad.npy"), new long[] {6, 8}).toString();
    }

    private static String[] reduce(Path d, String... request) throws IOException {
        List<String> args = new ArrayList<>(List.of(
                "reduce",
                "--input",
                gradient(d),
                "--dialect",
                "numpy",
                "--output",
                d.resolve("grad-out.npy").toString()));
        args.addAll(List.of(request));
        return args.toArray(String[]::new);
    }

    private static String[] args(String... args) {
        return args;
    }

    private static String source(Path d) throws IOException {
        Path row = d.resolve("row.npy");
        return (Files.exists(row) ? row : NpyFiles.int32(row, new long[] {1, 8})).toString();
    }

    private static String[] expand(Path d, String shape, String... more) throws IOException {
        List<String> args = new ArrayList<>(List.of(
                "expand",
                "--input",
                source(d),
                "--dialect",
                "numpy",
                "--shape",
                shape,
                "--output",
                d.resolve("out").toString()));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    /** A manifest of one file of 8 rows, otherwise valid. */
    private static String manifest(String path, int formatVersion) {
        return """
                {"format_version": %d, "tool_version": "0.1.0", "created": "2026-11-20T23:00:00Z",
                 "request": {"dialect": "numpy", "shape": "[8,3]"},
                 "inputs": [{"path": "in.npy", "shape": [1, 3], "dtype": "float32"}],
                 "shape": [8, 3], "dtype": "float32", "elements": 24, "bytes": 96, "row_dims": 1, "row_shape": [3],
                 "rows": 8, "format": "arrow", "compression": "none", "partitions": 1,
                 "files": [{"path": "%s", "partition": 0, "first_row": 0, "rows": 8, "bytes": 1234,
                            "crc32c": "0a1b2c3d", "executor_id": "1", "host": "localhost",
                            "source_read": {"first_row": 0, "rows": 2, "bytes_read": 0}}]}
                """.formatted(formatVersion, path);
    }

    static List<Entry> entries() throws IOException {
        String text = Files.readString(CATALOGUE, StandardCharsets.UTF_8);
        List<Entry> entries = new ArrayList<>();
        Matcher matcher = ENTRY.matcher(text);
        while (matcher.find()) {
            entries.add(new Entry(
                    matcher.group(1),
                    matcher.group(2),
                    Integer.parseInt(matcher.group(3)),
                    matcher.group(4),
                    matcher.group(5)));
        }
        return entries;
    }

    static Stream<Arguments> documented() throws IOException {
        return entries().stream().map(entry -> Arguments.of(entry.id(), entry));
    }

    /**
     * The Java API's refusals name the builder's parameters, never a flag a Java caller cannot pass; the command line
     * reads the same refusal in flags ({@code request-max-output}, {@code request-row-layout}).
     */
    @Test
    void aJavaApiRefusalNamesTheBuilderParameterAndNoFlag() throws IOException {
        Path npy = NpyFiles.int32(dir.resolve("api-row.npy"), new long[] {1, 8});
        String output = dir.resolve("api-out").toString();
        BroadcastException tooLarge = catchThrowableOfType(
                () -> TensorBroadcast.builder()
                        .source(npy.toString())
                        .dialect(Dialect.NUMPY)
                        .shape(TargetShape.parse("[" + TWO_TIB + "]"))
                        .output(output)
                        .build()
                        .prepare(new Configuration()),
                TooLargeException.class);
        assertThat(tooLarge.getMessage())
                .endsWith(": more than the output limit of 1.0 TiB (1099511627776 bytes);"
                        + " raise it with maxOutputBytes, such as maxOutputBytes(2199023255552L), or lift it with"
                        + " maxOutputBytes(TensorBroadcast.NO_OUTPUT_LIMIT)")
                .doesNotContain("--");
        assertThat(tooLarge.commandLineMessage())
                .endsWith(
                        "raise it with --max-output, such as --max-output 2t, or" + " lift it with --max-output none");
        BroadcastException nested = catchThrowableOfType(
                () -> TensorBroadcast.builder()
                        .source(npy.toString())
                        .dialect(Dialect.NUMPY)
                        .shape(TargetShape.parse("[4,8]"))
                        .output(output)
                        .rowLayout(RowLayout.NESTED)
                        .build()
                        .prepare(new Configuration()),
                InvalidRequestException.class);
        assertThat(nested.getMessage())
                .isEqualTo("Cannot use rowLayout(RowLayout.NESTED) with format arrow: Arrow IPC"
                        + " rows are arrow.fixed_shape_tensor, which keeps their shape; nested rows are for Parquet readers"
                        + " (Spark, DuckDB, polars); add format(OutputFormat.PARQUET)");
        assertThat(nested.commandLineMessage())
                .startsWith("Cannot use --row-layout nested with format arrow: ")
                .endsWith("; add --format parquet");
    }

    @Test
    void everyDocumentedErrorHasACaseAndEveryCaseIsDocumented() throws IOException {
        String text = Files.readString(CATALOGUE, StandardCharsets.UTF_8);
        List<String> headings = Pattern.compile("^### `([a-z0-9-]+)`", Pattern.MULTILINE)
                .matcher(text)
                .results()
                .map(result -> result.group(1))
                .toList();
        List<String> elsewhere =
                ELSEWHERE.matcher(text).results().map(result -> result.group(1)).toList();
        List<String> run = entries().stream().map(Entry::id).toList();

        assertThat(headings).doesNotHaveDuplicates();
        assertThat(run).as("entries with a message").containsExactlyInAnyOrderElementsOf(cases().keySet());
        assertThat(elsewhere)
                .as("entries tested elsewhere")
                .containsExactlyInAnyOrderElementsOf(ELSEWHERE_TESTS.keySet());
        assertThat(headings).as("every entry has a message or names its test").hasSize(run.size() + elsewhere.size());
    }

    @Test
    void theTestsNamedForTheOtherEntriesExist() throws Exception {
        String text = Files.readString(CATALOGUE, StandardCharsets.UTF_8);
        Matcher matcher = ELSEWHERE.matcher(text);
        while (matcher.find()) {
            String named = matcher.group(4) + "#" + matcher.group(5);
            assertThat(named).as(matcher.group(1)).isEqualTo(ELSEWHERE_TESTS.get(matcher.group(1)));
            Class<?> test = Class.forName(ErrorCatalogueTest.class.getPackageName() + "." + matcher.group(4));
            assertThat(Arrays.stream(test.getDeclaredMethods()).map(Method::getName))
                    .as(named)
                    .contains(matcher.group(5));
        }
    }

    /**
     * An error that tells the user to give an option must be said only where that option is taken: every option a
     * documented message names is accepted by the subcommand of its case and by every subcommand its entry lists.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("documented")
    void everyOptionAMessageNamesIsAcceptedWhereTheMessageIsSaid(String id, Entry entry) throws IOException {
        CommandLine cli = TensorBroadcastCli.commandLine(
                new PrintWriter(Writer.nullWriter()), new PrintWriter(Writer.nullWriter()));
        List<String> options = OPTION.matcher(entry.message())
                .results()
                .map(MatchResult::group)
                .distinct()
                .toList();
        Set<String> subcommands = new LinkedHashSet<>();
        String[] args = cases().get(id).args(Files.createDirectories(dir.resolve("options-" + id)));
        if (args.length > 0 && cli.getSubcommands().containsKey(args[0])) {
            subcommands.add(args[0]);
        }
        SUBCOMMAND
                .matcher(entry.appliesTo())
                .results()
                .map(result -> result.group(1))
                .filter(cli.getSubcommands()::containsKey)
                .forEach(subcommands::add);
        for (String subcommand : subcommands) {
            CommandSpec spec = cli.getSubcommands().get(subcommand).getCommandSpec();
            for (String option : options) {
                assertThat(spec.findOption(option))
                        .as("%s names %s, which %s must take", id, option, subcommand)
                        .isNotNull();
            }
        }
    }

    @Test
    void everyOptionALineTestedElsewhereNamesIsAcceptedWhereTheLineIsSaid() throws IOException {
        CommandLine cli = TensorBroadcastCli.commandLine(
                new PrintWriter(Writer.nullWriter()), new PrintWriter(Writer.nullWriter()));
        Matcher matcher = ELSEWHERE_LINE.matcher(Files.readString(CATALOGUE, StandardCharsets.UTF_8));
        int lines = 0;
        while (matcher.find()) {
            lines++;
            List<String> options = OPTION.matcher(matcher.group(3))
                    .results()
                    .map(MatchResult::group)
                    .toList();
            List<String> subcommands = SUBCOMMAND
                    .matcher(matcher.group(2))
                    .results()
                    .map(result -> result.group(1))
                    .filter(cli.getSubcommands()::containsKey)
                    .toList();
            for (String subcommand : subcommands) {
                CommandSpec spec = cli.getSubcommands().get(subcommand).getCommandSpec();
                for (String option : options) {
                    assertThat(spec.findOption(option))
                            .as("%s names %s, which %s must take", matcher.group(1), option, subcommand)
                            .isNotNull();
                }
            }
        }
        assertThat(lines).as("entries tested elsewhere that show their line").isGreaterThanOrEqualTo(5);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("documented")
    void printsTheDocumentedLine(String id, Entry entry) throws IOException {
        Path scratch = Files.createDirectories(dir.resolve(id));
        String[] args = cases().get(id).args(scratch);
        Pattern expected = Pattern.compile(Pattern.quote(entry.message())
                .replace("{dir}", "\\E" + Pattern.quote(scratch.toString()) + "\\Q")
                .replace("{any}", "\\E.*\\Q"));

        CliRun text = CliRun.of(args);
        assertThat(text.exitCode()).isEqualTo(entry.exitCode());
        assertThat(text.out()).isEmpty();
        assertThat(text.err()).endsWith("\n").hasLineCount(1);
        assertThat(text.err().strip()).matches(expected);

        if (args.length > 0) {
            String[] withJson = Arrays.copyOf(args, args.length + 1);
            withJson[args.length] = "--json";
            CliRun json = CliRun.of(withJson);
            assertThat(json.exitCode()).isEqualTo(entry.exitCode());
            JsonNode error = json.json().get("error");
            assertThat(error.get("kind").asText()).isEqualTo(entry.kind());
            assertThat(error.get("message").asText()).matches(expected);
        }
    }
}
