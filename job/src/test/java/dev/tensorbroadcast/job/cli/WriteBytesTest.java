package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.ParquetFooters;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bytes every format writes, with every codec it takes: each output's files by their CRC-32, as the writers made
 * them at 706c3f7 (before a write was described once). A change of the way a write is described must leave these
 * files as they are; a change of a format's bytes must change this table on purpose. The manifest is left out: it
 * holds the run's times. Two parts are not stable bytes at 706c3f7 already (readers do not care about them),
 * so they are compared by content: a {@code zarr.json}'s keys (the writer builds nested maps with {@code Map.of})
 * and a Parquet footer's list of encodings per column chunk (parquet-mr keeps them in a {@code HashSet} of enums,
 * ordered by identity hash codes, which depend on what else the JVM ran). Everything before a Parquet footer (the
 * pages) is compared byte for byte. The zstd Parquet pages and the row-group case's zstd batches changed on purpose
 * after 706c3f7: every zstd frame is now written by {@code ZstdFrames} (zstd 1.5.7 one-shot and streaming
 * compression split a repeated row's blocks into frames several times larger); their values read back unchanged.
 */
class WriteBytesTest {
    private static final ObjectMapper SORTED = JsonMapper.builder()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();
    /** Read by StoreBytesIT, which writes some of these cases to HDFS and S3 too. */
    static final Map<String, String> EXPECTED = new LinkedHashMap<>();

    static {
        EXPECTED.put("arrow-none", "_SUCCESS=00000000 part-00000.arrow=b126025f part-00001.arrow=f80c8180");
        EXPECTED.put("parquet-none", "_SUCCESS=00000000 part-00000.parquet=0e081491 part-00001.parquet=2970351e");
        EXPECTED.put("arrow-lz4", "_SUCCESS=00000000 part-00000.arrow=e8bd80a8 part-00001.arrow=e420a8ee");
        EXPECTED.put("parquet-lz4", "_SUCCESS=00000000 part-00000.parquet=1864f108 part-00001.parquet=6530fd70");
        EXPECTED.put("arrow-zstd", "_SUCCESS=00000000 part-00000.arrow=b6b6c4b4 part-00001.arrow=2a204004");
        EXPECTED.put("parquet-zstd", "_SUCCESS=00000000 part-00000.parquet=ce0f5a5e part-00001.parquet=811f488d");
        EXPECTED.put("arrow-zstd:9", "_SUCCESS=00000000 part-00000.arrow=dd3f1ce6 part-00001.arrow=168df2ec");
        EXPECTED.put("parquet-zstd:9", "_SUCCESS=00000000 part-00000.parquet=eec4a7d5 part-00001.parquet=5bfbc0ab");
        EXPECTED.put("parquet-bss-zstd", "_SUCCESS=00000000 part-00000.parquet=579e968a part-00001.parquet=b3a05354");
        EXPECTED.put("parquet-nested", "_SUCCESS=00000000 part-00000.parquet=1040c044 part-00001.parquet=0d05a5b2");
        EXPECTED.put("arrow-row-groups", "_SUCCESS=00000000 part-00000.arrow=e35ecd1f part-00001.arrow=109730fa");
        EXPECTED.put("parquet-row-groups", "_SUCCESS=00000000 part-00000.parquet=fa8a4587 part-00001.parquet=0b85651c");
        EXPECTED.put("arrow-int", "_SUCCESS=00000000 part-00000.arrow=81f3104a part-00001.arrow=2473bff2");
        EXPECTED.put("parquet-int-lz4", "_SUCCESS=00000000 part-00000.parquet=7e2caa38 part-00001.parquet=5962df41");
        EXPECTED.put("zarr-none", "_SUCCESS=00000000 c/0/0/0=8334b71d c/1/0/0=6af95830 zarr.json=2dd346aa");
        EXPECTED.put("zarr-zstd", "_SUCCESS=00000000 c/0/0/0=921d2753 c/1/0/0=549adba6 zarr.json=b298a626");
        EXPECTED.put("zarr-zstd:9", "_SUCCESS=00000000 c/0/0/0=a9f78f1f c/1/0/0=89284998 zarr.json=2a4491cd");
        EXPECTED.put("zarr-gzip", "_SUCCESS=00000000 c/0/0/0=50163de6 c/1/0/0=8fa4ed4a zarr.json=f657a53b");
        EXPECTED.put("zarr-gzip:4", "_SUCCESS=00000000 c/0/0/0=50163de6 c/1/0/0=8fa4ed4a zarr.json=005b0226");
        EXPECTED.put(
                "zarr-shard",
                "_SUCCESS=00000000 c/0/0/0=a563bef6 c/1/0/0=ca8c3d30 c/2/0/0=408bec01 "
                        + "c/3/0/0=f842b3fc zarr.json=7a39bb67");
        EXPECTED.put(
                "zarr-names",
                "_SUCCESS=00000000 c/0/0/0=db3082cb c/0/0/1=3fc9abde c/0/1/0=a196ac2c "
                        + "c/0/1/1=4f7967e6 c/1/0/0=0ce13322 c/1/0/1=cf430988 c/1/1/0=8355df02 c/1/1/1=36d8d72d "
                        + "c/2/0/0=86e32f2d c/2/0/1=da514937 c/2/1/0=951a1cc4 c/2/1/1=f41df746 c/3/0/0=8a18caf5 "
                        + "c/3/0/1=24ea012b c/3/1/0=88d3e68d c/3/1/1=c32c7048 zarr.json=22989a0a");
        EXPECTED.put("reduce.npy", "reduce.npy=2b4a6ced");
        EXPECTED.put("reduce-npy-format.npy", "reduce-npy-format.npy=2b4a6ced");
        EXPECTED.put("reduce-arrow", "_SUCCESS=00000000 part-00000.arrow=9616a5f4");
        EXPECTED.put("reduce-parquet", "_SUCCESS=00000000 part-00000.parquet=ceb43f40");
        EXPECTED.put("reduce-zarr", "_SUCCESS=00000000 c/0/0=864a547e zarr.json=91d4c5b5");
    }

    @TempDir
    Path dir;

    @Test
    void everyFormatAndCodecWritesTheBytesItWroteBefore() throws IOException {
        floats(dir.resolve("floats.npy"));
        NpyFiles.int32(dir.resolve("ints.npy"), new long[] {1, 6});
        Map<String, String> found = new LinkedHashMap<>();
        for (Case write : cases()) {
            Path output = dir.resolve(write.name());
            CliRun run = CliRun.of(write.commandLine(dir, output.toString()).toArray(String[]::new));
            assertThat(run.exitCode()).as(write.name() + ": " + run.err()).isZero();
            found.put(write.name(), crcs(output));
        }
        if (!found.equals(EXPECTED)) {
            found.forEach(
                    (name, crcs) -> System.out.println("        EXPECTED.put(\"" + name + "\", \"" + crcs + "\");"));
        }
        assertThat(found).isEqualTo(EXPECTED);
    }

    /** One command: {@code source} is the input file's name in the test's directory. */
    record Case(String name, String command, String source, List<String> args) {
        /** The command line of this write: its source in {@code inputs}, two partitions, into {@code output}. */
        List<String> commandLine(Path inputs, String output) {
            List<String> line = new ArrayList<>(List.of(
                    command,
                    "--input",
                    inputs.resolve(source).toString(),
                    "--dialect",
                    "numpy",
                    "--partitions",
                    "2",
                    "--output",
                    output));
            line.addAll(args);
            return line;
        }
    }

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        for (String codec : List.of("none", "lz4", "zstd", "zstd:9")) {
            for (String format : List.of("arrow", "parquet")) {
                cases.add(expand(format + "-" + codec, "--format", format, "--compression", codec));
            }
        }
        cases.add(expand(
                "parquet-bss-zstd", "--format", "parquet", "--encoding", "byte-stream-split", "--compression", "zstd"));
        cases.add(expand("parquet-nested", "--format", "parquet", "--row-layout", "nested"));
        for (String format : List.of("arrow", "parquet")) {
            cases.add(new Case(
                    format + "-row-groups",
                    "expand",
                    "big.npy",
                    List.of(
                            "--shape",
                            "[65536,3,6]",
                            "--format",
                            format,
                            "--row-group-size",
                            "1m",
                            "--compression",
                            "zstd")));
        }
        cases.add(new Case("arrow-int", "expand", "ints.npy", List.of("--shape", "[40,6]", "--format", "arrow")));
        cases.add(new Case(
                "parquet-int-lz4",
                "expand",
                "ints.npy",
                List.of("--shape", "[40,6]", "--format", "parquet", "--compression", "lz4")));
        for (String codec : List.of("none", "zstd", "zstd:9", "gzip", "gzip:4")) {
            cases.add(expand("zarr-" + codec, "--format", "zarr", "--compression", codec));
        }
        cases.add(expand(
                "zarr-shard", "--format", "zarr", "--chunks", "8,3,6", "--shard", "16,3,6", "--compression", "zstd"));
        cases.add(expand("zarr-names", "--format", "zarr", "--chunks", "16,2,3", "--dimension-names", "row,a,b"));
        cases.add(reduce("reduce.npy", List.of()));
        cases.add(reduce("reduce-npy-format.npy", List.of("--format", "npy")));
        cases.add(reduce("reduce-arrow", List.of("--format", "arrow", "--compression", "zstd")));
        cases.add(reduce("reduce-parquet", List.of("--format", "parquet", "--compression", "lz4")));
        cases.add(reduce("reduce-zarr", List.of("--format", "zarr", "--compression", "gzip")));
        return cases;
    }

    private static Case expand(String name, String... args) {
        List<String> all = new ArrayList<>(List.of("--shape", "[64,3,6]"));
        all.addAll(List.of(args));
        return new Case(name, "expand", "floats.npy", all);
    }

    /** A gradient of {@code [64,6]} summed back to the input's {@code [1,6]}. */
    private static Case reduce(String name, List<String> args) {
        List<String> all = new ArrayList<>(List.of("--input-shape", "[1,6]", "--shape", "[64,6]"));
        all.addAll(args);
        return new Case(name, "reduce", "gradient.npy", all);
    }

    /**
     * {@code [64,1,6]} float32 values (rows of {@code [3,6]} once broadcast, each its own), beside them a
     * {@code [65536,1,6]} input whose output spans row groups, and a {@code [64,6]} gradient.
     */
    static Path floats(Path file) throws IOException {
        NpyFiles.write(file.resolveSibling("big.npy"), "<f4", new long[] {65536, 1, 6}, values(65536 * 6));
        ByteBuffer gradient = ByteBuffer.allocate(64 * 6 * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 64 * 6; i++) {
            gradient.putFloat((i % 17) * 0.5f - i / 64f);
        }
        NpyFiles.write(file.resolveSibling("gradient.npy"), "<f4", new long[] {64, 6}, gradient.array());
        return NpyFiles.write(file, "<f4", new long[] {64, 1, 6}, values(64 * 6));
    }

    private static byte[] values(int count) {
        ByteBuffer data = ByteBuffer.allocate(count * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < count; i++) {
            data.putFloat((i % 1000) * 0.37f - 5);
        }
        return data.array();
    }

    /** Every file but the manifest, by its path under {@code output}, with its CRC-32 in hex. */
    static String crcs(Path output) throws IOException {
        if (Files.isRegularFile(output)) {
            return output.getFileName() + "=" + crc(output);
        }
        List<String> sums = new ArrayList<>();
        try (Stream<Path> paths = Files.walk(output)) {
            for (Path path : paths.filter(Files::isRegularFile).sorted().toList()) {
                String name = output.relativize(path).toString();
                if (!name.equals("_manifest.json")) {
                    sums.add(name + "=" + crc(path));
                }
            }
        }
        return String.join(" ", sums);
    }

    private static String crc(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        if (file.getFileName().toString().equals("zarr.json")) {
            bytes = SORTED.writeValueAsBytes(SORTED.readValue(bytes, Object.class));
        } else if (file.getFileName().toString().endsWith(".parquet")) {
            bytes = ParquetFooters.canonical(file, bytes);
        }
        CRC32 crc = new CRC32();
        crc.update(bytes);
        return String.format("%08x", crc.getValue());
    }
}
