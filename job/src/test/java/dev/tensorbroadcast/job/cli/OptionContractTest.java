package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.arrowio.source.DatasetFixtures;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.pipeline.DatasetFiles;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every option of every subcommand, as picocli's model lists it, is honoured or refused: the table below maps each
 * one to a check of its effect (a real run whose result shows it, a refusal that only reading it can cause, or the
 * test elsewhere that asserts its effect). A new option without an entry fails {@link #everyOptionHasAnEntry}; an
 * option a command shows but ignores has no effect to check, so it cannot get one.
 */
class OptionContractTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    static Path dir;

    /** The README's small sources: a [1,4096], a [3] and a [3,1] float32. */
    private static final Path EXAMPLES = Path.of("..", "examples");

    private static String row4096;
    private static String grad;
    private static String features;
    /** Runs by their arguments: several entries check one run's several effects. */
    private static final Map<List<String>, CliRun> RUNS = new HashMap<>();

    interface Check {
        void verify() throws Exception;
    }

    @BeforeAll
    static void fixtures() throws Exception {
        row4096 = EXAMPLES.resolve("row4096.npy").toString();
        grad = NpyFiles.int32(dir.resolve("grad.npy"), new long[] {6, 4}).toString();
        Path table = Files.createDirectories(dir.resolve("features"));
        DatasetFixtures.sql("COPY (SELECT i AS id, [CAST(i * 1000 + k AS FLOAT) FOR k IN range(4)] AS tensor,"
                + " [CAST(k AS FLOAT) FOR k IN range(2)] AS other FROM range(0, 4) t(i) ORDER BY i) TO '"
                + table.resolve("part-0.parquet") + "' (FORMAT PARQUET)");
        features = table.toString();
    }

    private static CliRun run(String... args) {
        return RUNS.computeIfAbsent(List.of(args), key -> CliRun.of(args));
    }

    private static String out(String name) {
        return dir.resolve(name).toString();
    }

    private static Check ok(Consumer<CliRun> effect, String... args) {
        return () -> {
            CliRun run = run(args);
            assertThat(run.exitCode()).as(run.err()).isZero();
            effect.accept(run);
        };
    }

    /** Refused with one line holding {@code line}: only an option that is read can be refused for its value. */
    private static Check refused(String line, String... args) {
        return () -> {
            CliRun run = run(args);
            assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(2);
            assertThat(run.err()).contains(line);
            assertThat(run.err().strip()).doesNotContain("\n");
        };
    }

    /** The effect is asserted by {@code test}, which runs where this cannot (a cluster, a full disk). */
    private static Check elsewhere(String test, String mentions) {
        return () -> {
            Path source;
            try (Stream<Path> files = Files.walk(Path.of("src", "test", "java"))) {
                source = files.filter(file -> file.getFileName().toString().equals(test + ".java"))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("no test " + test));
            }
            assertThat(Files.readString(source)).contains(mentions);
        };
    }

    private static Manifest manifest(String dataset) {
        try {
            return DatasetFiles.manifest(Path.of(dataset));
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static List<Encoding> parquetEncodings(String dataset) {
        List<Encoding> encodings = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of(dataset))) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".parquet")).toList()) {
                try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(
                        new org.apache.hadoop.fs.Path(file.toUri()), new org.apache.hadoop.conf.Configuration()))) {
                    reader.getRowGroups()
                            .forEach(group ->
                                    group.getColumns().forEach(column -> encodings.addAll(column.getEncodings())));
                }
            }
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        return encodings;
    }

    private static String[] args(String[] first, String... more) {
        String[] all = Arrays.copyOf(first, first.length + more.length);
        System.arraycopy(more, 0, all, first.length, more.length);
        return all;
    }

    // runs that several entries read
    private static String[] planJson() {
        return new String[] {
            "plan",
            "--dialect",
            "numpy",
            "--input-shape",
            "3",
            "--shape",
            "4x3",
            "--dtype",
            "int8",
            "--partition-size",
            "3",
            "--json"
        };
    }

    private static String[] planFeatures() {
        return new String[] {
            "plan",
            "--dialect",
            "pytorch",
            "--input",
            features,
            "--column",
            "tensor",
            "--row-shape",
            "[1,4]",
            "--shape",
            "-1,2,4",
            "--keep",
            "id",
            "--ship-threshold",
            "0",
            "--json"
        };
    }

    /** reduce to a Parquet dataset with every file option: zstd:9, BYTE_STREAM_SPLIT, 1 MiB groups, 2 tasks. */
    private static String[] reduceParquet() {
        return new String[] {
            "reduce",
            "--input",
            row4096,
            "--dialect",
            "numpy",
            "--input-shape",
            "[1,1]",
            "--shape",
            "1,4096",
            "--output",
            out("reduced"),
            "--format",
            "parquet",
            "--compression",
            "zstd:9",
            "--encoding",
            "byte-stream-split",
            "--row-group-size",
            "1m",
            "--row-layout",
            "nested",
            "--max-output",
            "4",
            "--ignore-free-space",
            "--json"
        };
    }

    /** reduce of the [6,4] int32 gradient back to [6,1], rows kept. */
    private static String[] reduceRows(String... more) {
        return args(
                new String[] {
                    "reduce", "--input", grad, "--dialect", "numpy", "--input-shape", "[6,1]", "--shape", "6,4"
                },
                more);
    }

    private static String[] reduceFeatures(String... more) {
        return args(
                new String[] {
                    "reduce",
                    "--input",
                    features,
                    "--dialect",
                    "pytorch",
                    "--input-shape",
                    "[1,1,4]",
                    "--shape",
                    "-1,1,4"
                },
                more);
    }

    private static String[] expandRow(String... more) {
        return args(new String[] {"expand", "--input", row4096, "--dialect", "numpy", "--shape", "2,4096"}, more);
    }

    private static String[] joint(String... more) {
        return args(
                new String[] {
                    "broadcast-tensors",
                    "--input",
                    EXAMPLES.resolve("col3.npy").toString(),
                    "--input",
                    EXAMPLES.resolve("row3.npy").toString(),
                    "--dialect",
                    "numpy"
                },
                more);
    }

    /** What each command's {@code --json} and {@code --verbose} are checked with: arguments it refuses. */
    private static final Map<String, String[]> REFUSED = Map.of(
            "plan", new String[] {"plan", "--dialect", "numpy", "--input-shape", "3", "--shape", "4"},
            "expand", new String[] {"expand", "--input", "missing.npy", "--dialect", "numpy", "--output", "x"},
            "broadcast-tensors",
                    new String[] {"broadcast-tensors", "--input", "missing.npy", "--dialect", "onnx", "--output", "x"},
            "reduce",
                    new String[] {
                        "reduce",
                        "--input",
                        "missing.npy",
                        "--dialect",
                        "numpy",
                        "--input-shape",
                        "3",
                        "--output",
                        "x.npy"
                    },
            "demo", new String[] {"demo", "--rows", "-1", "--output", "/nonexistent/demo"},
            "inspect", new String[] {"inspect", "/nonexistent"},
            "verify", new String[] {"verify", "/nonexistent"},
            "export", new String[] {"export", "/nonexistent", "--npy", "x.npy"});

    private static Map<String, Check> table() {
        Map<String, Check> checks = new LinkedHashMap<>();
        for (var command : REFUSED.entrySet()) {
            checks.put(command.getKey() + " --json", () -> {
                CliRun run = CliRun.of(args(command.getValue(), "--json"));
                assertThat(run.exitCode()).isEqualTo(2);
                assertThat(run.json().get("error").get("message").asText()).startsWith("Cannot");
                assertThat(run.err()).isEmpty();
            });
            checks.put(command.getKey() + " --verbose", () -> {
                CliRun run = CliRun.of(args(command.getValue(), "--verbose"));
                assertThat(run.exitCode()).isEqualTo(2);
                assertThat(run.err()).contains("\tat dev.tensorbroadcast.");
            });
        }
        for (String command : List.of("cluster status", "cluster stop")) {
            checks.put(command + " --json", () -> {
                CliRun run = CliRun.of(args(command.split(" "), "--json"));
                assertThat(run.json().isObject()).isTrue();
            });
            // ErrorReporter reads --verbose of whichever command failed; these fail only with a broken cluster
            checks.put(command + " --verbose", elsewhere("PlanErrorTest", "\"--verbose\""));
        }

        // plan: reads no data, so every effect is in its output
        checks.put(
                "plan --dialect",
                ok(run -> assertThat(run.json().get("dialect").asText()).isEqualTo("numpy"), planJson()));
        checks.put(
                "plan --shape",
                ok(run -> assertThat(run.json().get("shape").toString()).isEqualTo("[4,3]"), planJson()));
        checks.put(
                "plan --dtype",
                ok(run -> assertThat(run.json().get("dtype").asText()).isEqualTo("int8"), planJson()));
        checks.put(
                "plan --partition-size",
                ok(run -> assertThat(run.json().get("partitions").asLong()).isEqualTo(4), planJson()));
        checks.put(
                "plan --input-shape",
                ok(run -> assertThat(run.json().get("input_shapes").toString()).isEqualTo("[[3]]"), planJson()));
        checks.put(
                "plan --partitions",
                ok(
                        run -> assertThat(run.out()).contains("partitions    2 of 2 rows"),
                        "plan",
                        "--dialect",
                        "numpy",
                        "--input-shape",
                        "3",
                        "--shape",
                        "4,3",
                        "--partitions",
                        "2"));
        checks.put(
                "plan --mode",
                ok(
                        run -> assertThat(run.out()).contains("output        [3]"),
                        "plan",
                        "--dialect",
                        "openvino",
                        "--mode",
                        "bidirectional",
                        "--input-shape",
                        "3",
                        "--shape",
                        "1"));
        checks.put(
                "plan --axes-mapping",
                ok(
                        run -> assertThat(run.out()).contains("(stride 1) 2x(stride 0)"),
                        "plan",
                        "--dialect",
                        "openvino",
                        "--mode",
                        "explicit",
                        "--axes-mapping",
                        "0",
                        "--input-shape",
                        "3",
                        "--shape",
                        "3,2"));
        checks.put(
                "plan --broadcast-axes",
                refused(
                        "with broadcast axes [1]",
                        "plan",
                        "--dialect",
                        "ngraph",
                        "--input-shape",
                        "3",
                        "--shape",
                        "2,3",
                        "--broadcast-axes",
                        "1"));
        checks.put(
                "plan --axis",
                ok(
                        run -> assertThat(run.out()).contains("output        [2,3]"),
                        "plan",
                        "--dialect",
                        "openvino",
                        "--mode",
                        "pdpd",
                        "--axis",
                        "0",
                        "--input-shape",
                        "2",
                        "--shape",
                        "2,3"));
        checks.put(
                "plan --input",
                ok(
                        run -> assertThat(run.json().get("input_shapes").toString())
                                .isEqualTo("[[4,1,4]]"),
                        planFeatures()));
        checks.put(
                "plan --row-shape",
                ok(run -> assertThat(run.json().get("shape").toString()).isEqualTo("[4,2,4]"), planFeatures()));
        checks.put(
                "plan --ship-threshold",
                ok(run -> assertThat(run.out()).contains("\"ship_threshold\":0"), planFeatures()));
        checks.put(
                "plan --keep",
                ok(
                        run -> assertThat(run.json().get("kept_columns").toString())
                                .isEqualTo("[{\"name\":\"id\",\"type\":\"int64\"}]"),
                        planFeatures()));
        checks.put(
                "plan --column",
                refused(
                        "'nothing'",
                        "plan",
                        "--dialect",
                        "numpy",
                        "--input",
                        features,
                        "--column",
                        "nothing",
                        "--row-shape",
                        "[4]"));

        // expand and broadcast-tensors: one real run each, and refusals for what a run cannot show cheaply
        String[] expanded = expandRow(
                "--output",
                out("expanded"),
                "--format",
                "parquet",
                "--compression",
                "zstd:9",
                "--partitions",
                "2",
                "--encoding",
                "byte-stream-split");
        // the input as a qualified URI, not as typed: the manifest says where it was from anywhere
        checks.put(
                "expand --input",
                ok(
                        run -> assertThat(manifest(out("expanded"))
                                        .inputs()
                                        .get(0)
                                        .path())
                                .startsWith("file:/")
                                .endsWith("row4096.npy"),
                        expanded));
        checks.put(
                "expand --dialect",
                ok(
                        run -> assertThat(manifest(out("expanded")).request().get("dialect"))
                                .isEqualTo("numpy"),
                        expanded));
        checks.put(
                "expand --shape",
                ok(run -> assertThat(manifest(out("expanded")).shape()).containsExactly(2L, 4096L), expanded));
        checks.put(
                "expand --output",
                ok(run -> assertThat(Path.of(out("expanded"), "_SUCCESS")).exists(), expanded));
        checks.put(
                "expand --format",
                ok(run -> assertThat(manifest(out("expanded")).format()).isEqualTo("parquet"), expanded));
        checks.put(
                "expand --compression",
                ok(run -> assertThat(manifest(out("expanded")).compression()).isEqualTo("zstd:9"), expanded));
        checks.put(
                "expand --partitions",
                ok(run -> assertThat(manifest(out("expanded")).files()).hasSize(2), expanded));
        checks.put(
                "expand --encoding",
                ok(
                        run -> assertThat(parquetEncodings(out("expanded"))).contains(Encoding.BYTE_STREAM_SPLIT),
                        expanded));
        checks.put(
                "expand --partition-size",
                refused(
                        "Cannot use --partition-size with --partitions",
                        expandRow("--output", out("x"), "--partition-size", "1k", "--partitions", "2")));
        checks.put(
                "expand --mode",
                refused("numpy takes no mode (--mode)", expandRow("--output", out("x"), "--mode", "explicit")));
        checks.put(
                "expand --axes-mapping",
                refused(
                        "Cannot use --axes-mapping with --broadcast-axes",
                        expandRow("--output", out("x"), "--axes-mapping", "0", "--broadcast-axes", "0")));
        checks.put(
                "expand --broadcast-axes",
                refused(
                        "Cannot use --axes-mapping with --broadcast-axes",
                        expandRow("--output", out("x"), "--axes-mapping", "0", "--broadcast-axes", "0")));
        checks.put("expand --axis", elsewhere("PlanCommandTest", "\"--axis\""));
        checks.put(
                "expand --row-group-size",
                refused(
                        "Cannot use row group size 10240 bytes",
                        expandRow("--output", out("x"), "--row-group-size", "10k")));
        checks.put(
                "expand --row-layout",
                refused(
                        "Cannot use --row-layout nested with format arrow",
                        expandRow("--output", out("x"), "--row-layout", "nested")));
        checks.put(
                "expand --max-output",
                refused(
                        "more than the output limit of 1.0 KiB",
                        expandRow("--output", out("x"), "--max-output", "1k")));
        checks.put("expand --ignore-free-space", elsewhere("DiskFullTest", "\"--ignore-free-space\""));
        checks.put("expand --overwrite", () -> {
            Files.createDirectories(dir.resolve("taken"));
            refused("it already exists", expandRow("--output", out("taken"))).verify();
            ok(
                            run -> assertThat(Path.of(out("taken"), "_SUCCESS")).exists(),
                            expandRow("--output", out("taken"), "--overwrite"))
                    .verify();
        });
        checks.put("expand --master", elsewhere("BadMasterTest", "\"--master\""));
        checks.put(
                "expand --conf",
                refused(
                        "Cannot apply --conf spark.master: give the master with --master",
                        expandRow("--output", out("x"), "--conf", "spark.master=local")));
        checks.put("expand --column", elsewhere("KeptColumnsCommandTest", "\"--column\""));
        checks.put("expand --row-shape", elsewhere("ExpandCommandTest", "\"--row-shape\""));
        checks.put("expand --ship-threshold", elsewhere("NullFormatTest", "\"--ship-threshold\""));
        checks.put("expand --keep", elsewhere("KeptColumnsCommandTest", "\"--keep\""));
        checks.put("expand --chunks", elsewhere("ZarrCommandTest", "\"--chunks\""));
        checks.put("expand --shard", elsewhere("ZarrCommandTest", "\"--shard\""));
        checks.put("reduce --chunks", elsewhere("ZarrCommandTest", "reduceToZarrRefusesWhatAnArrayCannotHold"));
        checks.put(
                "reduce --shard", elsewhere("ZarrCommandTest", "aLargeZarrInputIsReadInSlicesByExpandAndReduceTasks"));
        checks.put("expand --dimension-names", elsewhere("ZarrCommandTest", "\"--dimension-names\""));
        checks.put(
                "broadcast-tensors --dimension-names",
                refused(
                        "Cannot use --dimension-names with format arrow",
                        joint("--output", out("x"), "--dimension-names", "a,b")));
        checks.put(
                "broadcast-tensors --chunks",
                refused("Cannot use --chunks with format arrow", joint("--output", out("x"), "--chunks", "3,4")));
        checks.put(
                "broadcast-tensors --shard",
                refused(
                        "Cannot use --shard 6,4 without --chunks",
                        joint("--output", out("x"), "--format", "zarr", "--shard", "6,4")));
        checks.put("expand --partition-by", elsewhere("PartitionByCommandTest", "\"--partition-by\""));

        String[] joined = joint("--output", out("joint"), "--format", "parquet", "--partitions", "1");
        checks.put(
                "broadcast-tensors --input",
                ok(
                        run -> assertThat(manifest(out("joint") + "/1").inputs().stream()
                                        .map(input -> Path.of(input.path())
                                                .getFileName()
                                                .toString()))
                                .containsExactly("col3.npy", "row3.npy"),
                        joined));
        checks.put(
                "broadcast-tensors --dialect",
                refused(
                        "Cannot use dialect onnx with broadcast-tensors",
                        "broadcast-tensors",
                        "--input",
                        row4096,
                        "--input",
                        row4096,
                        "--dialect",
                        "onnx",
                        "--output",
                        out("x")));
        checks.put(
                "broadcast-tensors --output",
                ok(run -> assertThat(Path.of(out("joint"), "0", "_SUCCESS")).exists(), joined));
        checks.put(
                "broadcast-tensors --format",
                ok(run -> assertThat(manifest(out("joint") + "/0").format()).isEqualTo("parquet"), joined));
        checks.put(
                "broadcast-tensors --partitions",
                ok(run -> assertThat(manifest(out("joint") + "/0").files()).hasSize(1), joined));
        checks.put(
                "broadcast-tensors --compression",
                refused("Cannot use compression 'zstd:99'", joint("--output", out("x"), "--compression", "zstd:99")));
        checks.put(
                "broadcast-tensors --partition-size",
                refused(
                        "Cannot use --partition-size with --partitions",
                        joint("--output", out("x"), "--partition-size", "1k", "--partitions", "2")));
        checks.put(
                "broadcast-tensors --encoding",
                refused(
                        "Cannot use --encoding byte-stream-split with format arrow",
                        joint("--output", out("x"), "--encoding", "byte-stream-split")));
        checks.put(
                "broadcast-tensors --row-group-size",
                refused(
                        "Cannot use row group size 10240 bytes",
                        joint("--output", out("x"), "--row-group-size", "10k")));
        checks.put(
                "broadcast-tensors --row-layout",
                refused(
                        "Cannot use --row-layout nested with format arrow",
                        joint("--output", out("x"), "--row-layout", "nested")));
        checks.put(
                "broadcast-tensors --max-output",
                refused("more than the output limit of 1 B", joint("--output", out("x"), "--max-output", "1")));
        checks.put(
                "broadcast-tensors --ignore-free-space",
                refused(
                        "Cannot use --ignore-free-space with --format" + " null",
                        joint("--format", "null", "--ignore-free-space")));
        checks.put("broadcast-tensors --overwrite", () -> {
            Files.createDirectories(dir.resolve("taken-joint"));
            refused("it already exists", joint("--output", out("taken-joint"))).verify();
            ok(
                            run -> assertThat(Path.of(out("taken-joint"), "1", "_SUCCESS"))
                                    .exists(),
                            joint("--output", out("taken-joint"), "--overwrite"))
                    .verify();
        });
        checks.put("broadcast-tensors --master", elsewhere("BadMasterTest", "\"--master\""));
        checks.put(
                "broadcast-tensors --conf",
                refused(
                        "Cannot apply --conf spark.master: give the master with" + " --master",
                        joint("--output", out("x"), "--conf", "spark.master=local")));
        checks.put(
                "broadcast-tensors --column",
                refused(
                        "'nothing'",
                        "broadcast-tensors",
                        "--input",
                        features,
                        "--input",
                        features,
                        "--dialect",
                        "numpy",
                        "--column",
                        "nothing",
                        "--output",
                        out("x")));
        checks.put(
                "broadcast-tensors --row-shape",
                refused(
                        "every row needs 3 (--row-shape [3])",
                        "broadcast-tensors",
                        "--input",
                        features,
                        "--input",
                        features,
                        "--dialect",
                        "numpy",
                        "--keep",
                        "none",
                        "--row-shape",
                        "[3]",
                        "--output",
                        out("x")));
        checks.put(
                "broadcast-tensors --ship-threshold",
                refused(
                        "ship threshold",
                        "broadcast-tensors",
                        "--input",
                        features,
                        "--input",
                        features,
                        "--dialect",
                        "numpy",
                        "--ship-threshold",
                        "lots",
                        "--output",
                        out("x")));
        checks.put(
                "broadcast-tensors --keep",
                refused(
                        "Cannot keep column 'nothing'",
                        "broadcast-tensors",
                        "--input",
                        features,
                        "--input",
                        features,
                        "--dialect",
                        "numpy",
                        "--column",
                        "tensor",
                        "--row-shape",
                        "[1,4]",
                        "--keep",
                        "nothing",
                        "--output",
                        out("x")));

        // reduce: a Parquet result with every file option, a .npy result, and its refusals
        String[] parquet = reduceParquet();
        checks.put(
                "reduce --format",
                ok(run -> assertThat(manifest(out("reduced")).format()).isEqualTo("parquet"), parquet));
        checks.put(
                "reduce --compression",
                ok(run -> assertThat(manifest(out("reduced")).compression()).isEqualTo("zstd:9"), parquet));
        checks.put(
                "reduce --encoding",
                ok(run -> assertThat(parquetEncodings(out("reduced"))).contains(Encoding.BYTE_STREAM_SPLIT), parquet));
        checks.put(
                "reduce --row-layout",
                ok(run -> assertThat(manifest(out("reduced")).rowLayout()).isEqualTo("nested"), parquet));
        checks.put("reduce --max-output", () -> {
            ok(
                            run -> assertThat(run.json()
                                            .get("results")
                                            .get(0)
                                            .get("bytes")
                                            .asLong())
                                    .isEqualTo(4),
                            parquet)
                    .verify();
            refused(
                            "Cannot write 4 B (4 bytes) to file:" + out("dry") + ": more than the output limit of 3 B",
                            reduceParquetDry("--max-output", "3"))
                    .verify();
            refused(
                            "more than the output limit of 3 B",
                            "reduce",
                            "--input",
                            row4096,
                            "--dialect",
                            "numpy",
                            "--input-shape",
                            "[1,1]",
                            "--shape",
                            "1,4096",
                            "--output",
                            out("dry.npy"),
                            "--max-output",
                            "3",
                            "--dry-run")
                    .verify();
        });
        checks.put("reduce --row-group-size", () -> {
            refused("Cannot use row group size 10240 bytes", reduceParquetDry("--row-group-size", "10k"))
                    .verify();
            refused(
                            "Cannot use --row-group-size with format npy",
                            reduceRows("--output", out("g.npy"), "--row-group-size", "1m", "--dry-run"))
                    .verify();
        });
        checks.put("reduce --ignore-free-space", elsewhere("DiskFullTest", "\"--ignore-free-space\""));
        checks.put(
                "reduce --output",
                ok(
                        run -> assertThat(Path.of(out("rows.npy"))).isRegularFile(),
                        reduceRows("--output", out("rows.npy"), "--partitions", "3")));
        checks.put(
                "reduce --partitions",
                ok(
                        run -> assertThat(run.out()).contains("from 3 tasks"),
                        reduceRows("--output", out("rows.npy"), "--partitions", "3")));
        checks.put(
                "reduce --input",
                ok(
                        run -> assertThat(run.out()).contains("[6,1] int32"),
                        reduceRows("--output", out("rows.npy"), "--partitions", "3")));
        checks.put(
                "reduce --input-shape",
                ok(
                        run -> assertThat(run.out()).contains("[6,1] int32"),
                        reduceRows("--output", out("rows.npy"), "--partitions", "3")));
        checks.put(
                "reduce --dialect",
                ok(
                        run -> assertThat(run.out()).contains("input 0: [6,1] int32, summing" + " axes [1]"),
                        reduceRows("--output", out("d.npy"), "--dry-run")));
        checks.put(
                "reduce --shape",
                ok(
                        run -> assertThat(run.out()).contains("gradient: [6,4]"),
                        reduceRows("--output", out("d.npy"), "--dry-run")));
        checks.put(
                "reduce --dry-run",
                ok(
                        run -> assertThat(Path.of(out("d.npy"))).doesNotExist(),
                        reduceRows("--output", out("d.npy"), "--dry-run")));
        checks.put(
                "reduce --partition-size",
                ok(
                        run -> assertThat(run.out()).contains("rows-kept: 6 tasks"),
                        reduceRows("--output", out("d.npy"), "--partition-size", "16", "--dry-run")));
        checks.put("reduce --overwrite", () -> {
            Files.writeString(dir.resolve("old.npy"), "old");
            refused("the file exists", reduceRows("--output", out("old.npy"), "--dry-run"))
                    .verify();
            ok(run -> {}, reduceRows("--output", out("old.npy"), "--overwrite", "--dry-run"))
                    .verify();
        });
        checks.put(
                "reduce --input-index",
                ok(
                        run -> assertThat(run.out()).contains("input 1: [4] int32"),
                        "reduce",
                        "--input",
                        grad,
                        "--dialect",
                        "numpy",
                        "--input-shape",
                        "[6,1]",
                        "--input-shape",
                        "[4]",
                        "--input-index",
                        "1",
                        "--output",
                        out("i.npy"),
                        "--dry-run"));
        checks.put(
                "reduce --mode",
                refused(
                        "numpy takes no mode (--mode)",
                        reduceRows("--output", out("m.npy"), "--mode", "explicit", "--dry-run")));
        checks.put(
                "reduce --axes-mapping",
                refused(
                        "Cannot use --axes-mapping with --broadcast-axes",
                        reduceRows("--output", out("m.npy"), "--axes-mapping", "0", "--broadcast-axes", "0")));
        checks.put(
                "reduce --broadcast-axes",
                ok(
                        run -> assertThat(run.out()).contains("summing axes [0]"),
                        "reduce",
                        "--input",
                        grad,
                        "--dialect",
                        "ngraph",
                        "--input-shape",
                        "[4]",
                        "--shape",
                        "6,4",
                        "--broadcast-axes",
                        "0",
                        "--output",
                        out("n.npy"),
                        "--dry-run"));
        checks.put(
                "reduce --axis",
                ok(
                        run -> assertThat(run.out()).contains("input 0: [6] int32, summing axes [1]"),
                        "reduce",
                        "--input",
                        grad,
                        "--dialect",
                        "openvino",
                        "--mode",
                        "pdpd",
                        "--axis",
                        "0",
                        "--input-shape",
                        "[6]",
                        "--shape",
                        "6,4",
                        "--output",
                        out("a.npy"),
                        "--dry-run"));
        checks.put(
                "reduce --column",
                refused("'nothing'", reduceFeatures("--column", "nothing", "--output", out("c.npy"), "--dry-run")));
        checks.put(
                "reduce --row-shape",
                ok(
                        run -> assertThat(run.out()).contains("gradient: [4,1,4]"),
                        "reduce",
                        "--input",
                        features,
                        "--dialect",
                        "pytorch",
                        "--input-shape",
                        "[1,1,4]",
                        "--shape",
                        "4,1,4",
                        "--column",
                        "tensor",
                        "--row-shape",
                        "[1,4]",
                        "--output",
                        out("c.npy"),
                        "--dry-run"));
        checks.put("reduce --ship-threshold", elsewhere("ReduceFixturesTest", "\"--ship-threshold\""));
        // with the tests' session running, a master is not started but that session taken: BadMasterTest runs none
        checks.put("reduce --master", elsewhere("BadMasterTest", "\"--master\""));
        checks.put(
                "reduce --conf",
                refused(
                        "Cannot apply --conf spark.master: give the master with --master",
                        reduceRows("--output", out("conf.npy"), "--conf", "spark.master=local")));

        // the others
        checks.put("demo --rows", elsewhere("DemoCommandTest", "\"--rows\""));
        checks.put("demo --output", elsewhere("DemoCommandTest", "\"--output\""));
        checks.put("verify --source", elsewhere("VerifyCommandTest", "\"--source\""));
        checks.put(
                "verify --column",
                refused("Cannot use --column without --source", "verify", out("expanded"), "--column", "tensor"));
        checks.put(
                "verify --row-shape",
                refused("Cannot use --row-shape without --source", "verify", out("expanded"), "--row-shape", "[4096]"));
        checks.put("export --npy", elsewhere("ExportCommandTest", "\"--npy\""));
        checks.put("export --overwrite", elsewhere("ExportCommandTest", "\"--overwrite\""));
        checks.put("export --force", elsewhere("NpyExporterTest", "pass --force to write it anyway"));
        checks.put(
                "cluster start --workers",
                withSparkHome(refused("Cannot start 0 workers", "cluster", "start", "--workers", "0")));
        checks.put(
                "cluster start --worker-cores",
                withSparkHome(refused("Cannot give a worker 0 cores", "cluster", "start", "--worker-cores", "0")));
        checks.put(
                "cluster start --worker-memory",
                withSparkHome(
                        refused("Cannot give a worker memory 'lots'", "cluster", "start", "--worker-memory", "lots")));
        checks.put("cluster start --hdfs", elsewhere("ClusterHdfsIT", "hdfs = true"));
        checks.put("cluster start --s3", elsewhere("ClusterS3SettingsTest", "s3Settings"));
        checks.put("cluster start --s3-data", elsewhere("ClusterS3DataTest", "\"--s3-data\""));
        checks.put("cluster start --yarn", elsewhere("ClusterYarnCommandIT", "\"--yarn\""));
        checks.put(
                "cluster start --connect",
                withSparkHome(refused(
                        "Cannot start a Spark Connect server on YARN:"
                                + " --connect runs on the standalone cluster; leave out --yarn or --connect",
                        "cluster",
                        "start",
                        "--yarn",
                        "--connect")));
        // a Spark setting is refused where no Spark starts; the Hadoop ones reach S3A (S3StorageIT)
        checks.put(
                "inspect --conf",
                refused(
                        "this command starts no Spark, so it takes Hadoop settings only",
                        "inspect",
                        out("expanded"),
                        "--conf",
                        "spark.executor.memory=1g"));
        checks.put(
                "verify --conf",
                refused(
                        "this command starts no Spark, so it takes Hadoop settings only",
                        "verify",
                        out("expanded"),
                        "--conf",
                        "spark.executor.memory=1g"));
        checks.put(
                "export --conf",
                refused(
                        "this command starts no Spark, so it takes Hadoop settings only",
                        "export",
                        out("expanded"),
                        "--npy",
                        out("conf.npy"),
                        "--conf",
                        "spark.executor.memory=1g"));
        return checks;
    }

    /**
     * 'cluster start' finds Spark before it reads its options: a home that looks like one (a spark-core jar by
     * name) lets these values be refused, before anything starts.
     */
    private static Check withSparkHome(Check check) {
        return () -> {
            String property = "tensorbroadcast.spark.home";
            String before = System.getProperty(property);
            Path home = Files.createDirectories(dir.resolve("spark-home").resolve("jars"))
                    .getParent();
            if (Files.notExists(home.resolve("jars").resolve("spark-core_2.13-4.2.0.jar"))) {
                Files.createFile(home.resolve("jars").resolve("spark-core_2.13-4.2.0.jar"));
            }
            System.setProperty(property, home.toString());
            try {
                check.verify();
            } finally {
                if (before == null) {
                    System.clearProperty(property);
                } else {
                    System.setProperty(property, before);
                }
            }
        };
    }

    private static String[] reduceParquetDry(String option, String value) {
        return new String[] {
            "reduce",
            "--input",
            row4096,
            "--dialect",
            "numpy",
            "--input-shape",
            "[1,1]",
            "--shape",
            "1,4096",
            "--output",
            out("dry"),
            "--format",
            "parquet",
            option,
            value,
            "--dry-run"
        };
    }

    /** Every option but -h and -V (checked for all commands by {@link #helpAndVersionWorkEverywhere}). */
    private static Map<String, CommandLine> commands() {
        Map<String, CommandLine> commands = new LinkedHashMap<>();
        CommandLine root = TensorBroadcastCli.commandLine(
                new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
        collect(root, commands);
        return commands;
    }

    private static void collect(CommandLine line, Map<String, CommandLine> into) {
        for (CommandLine sub : line.getSubcommands().values()) {
            String name = sub.getCommandSpec().qualifiedName(" ").substring("tensor-broadcast ".length());
            into.put(name, sub);
            collect(sub, into);
        }
    }

    @Test
    void everyOptionHasAnEntry() {
        TreeSet<String> options = new TreeSet<>();
        commands().forEach((name, line) -> {
            for (OptionSpec option : line.getCommandSpec().options()) {
                if (!option.usageHelp() && !option.versionHelp()) {
                    options.add(name + " " + option.longestName());
                }
            }
        });
        assertThat(new TreeSet<>(table().keySet())).isEqualTo(options);
    }

    @TestFactory
    Stream<DynamicTest> everyOptionIsHonouredOrRefused() {
        return table().entrySet().stream()
                .map(entry -> DynamicTest.dynamicTest(
                        entry.getKey(), () -> entry.getValue().verify()));
    }

    @Test
    void helpAndVersionWorkEverywhere() {
        commands().keySet().forEach(name -> {
            CliRun help = CliRun.of(args(name.split(" "), "--help"));
            assertThat(help.exitCode()).isZero();
            assertThat(help.out()).startsWith("Usage: tensor-broadcast " + name);
            CliRun version = CliRun.of(args(name.split(" "), "--version"));
            assertThat(version.exitCode()).isZero();
            assertThat(version.out()).startsWith("tensor-broadcast ");
        });
    }
}
