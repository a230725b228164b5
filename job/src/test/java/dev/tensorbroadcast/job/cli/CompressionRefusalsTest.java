package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.pipeline.NpyFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each format refuses the compression it cannot honour in one line, exit code 2, nothing written: the lines as they
 * read at 706c3f7, whichever part of the program checks them.
 */
class CompressionRefusalsTest {
    @TempDir
    Path dir;

    private Path source;

    @BeforeEach
    void source() throws IOException {
        source = NpyFiles.int32(dir.resolve("a.npy"), new long[] {1, 6});
    }

    @Test
    void arrowAndParquetRefuseGzipNamingTheCodec() throws IOException {
        assertRefused(
                expand("--format", "arrow", "--compression", "gzip:4"),
                "Cannot use --compression gzip with"
                        + " format arrow: gzip is Zarr's codec here; arrow and parquet files take none, lz4 or zstd");
        assertRefused(
                expand("--compression", "gzip"),
                "Cannot use --compression gzip with format arrow: gzip is"
                        + " Zarr's codec here; arrow and parquet files take none, lz4 or zstd");
        assertRefused(
                expand("--format", "parquet", "--compression", "gzip:9"),
                "Cannot use --compression gzip with"
                        + " format parquet: gzip is Zarr's codec here; arrow and parquet files take none, lz4 or zstd");
    }

    @Test
    void zarrRefusesLz4() throws IOException {
        assertRefused(
                expand("--format", "zarr", "--compression", "lz4"),
                "Cannot use --compression lz4 with format" + " zarr: Zarr chunks take zstd, gzip or none here");
    }

    @Test
    void aNpyRefusesEveryCodecWithItsLevel() throws IOException {
        assertRefused(
                reduce("out.npy", "--compression", "zstd:9"),
                "Cannot use --compression zstd:9 with format"
                        + " npy: a .npy file is written uncompressed; drop --compression, or write a dataset directory with"
                        + " --format arrow or parquet");
        assertRefused(
                reduce("out.npy", "--format", "npy", "--compression", "gzip"),
                "Cannot use --compression gzip"
                        + " with format npy: a .npy file is written uncompressed; drop --compression, or write a dataset"
                        + " directory with --format arrow or parquet");
        assertRefused(
                reduce("out.npy", "--row-group-size", "2m"),
                "Cannot use --row-group-size with format npy: a"
                        + " .npy file is one array, without row groups or record batches; drop --row-group-size, or write a"
                        + " dataset directory with --format arrow or parquet");
    }

    @Test
    void aCodecOrLevelNobodyHasIsRefusedBeforeAnyFormat() throws IOException {
        assertRefused(
                expand("--format", "zarr", "--compression", "zstd:23"),
                "Cannot use compression 'zstd:23':"
                        + " zstd levels go from 1 (fastest) to 22 (smallest); expected none, lz4, zstd, zstd:1 to zstd:22, gzip"
                        + " or gzip:1 to gzip:9");
        assertRefused(
                expand("--compression", "lz4:2"),
                "Cannot use compression 'lz4:2': lz4 takes no level;"
                        + " expected none, lz4, zstd, zstd:1 to zstd:22, gzip or gzip:1 to gzip:9");
    }

    private CliRun expand(String... options) {
        String[] args = Stream.concat(
                        Stream.of(
                                "expand",
                                "--input",
                                source.toString(),
                                "--dialect",
                                "numpy",
                                "--shape",
                                "[4,6]",
                                "--output",
                                dir.resolve("out").toString()),
                        Stream.of(options))
                .toArray(String[]::new);
        return CliRun.of(args);
    }

    private CliRun reduce(String output, String... options) {
        String[] args = Stream.concat(
                        Stream.of(
                                "reduce",
                                "--input",
                                source.toString(),
                                "--dialect",
                                "numpy",
                                "--input-shape",
                                "[1,6]",
                                "--shape",
                                "[1,6]",
                                "--output",
                                dir.resolve(output).toString()),
                        Stream.of(options))
                .toArray(String[]::new);
        return CliRun.of(args);
    }

    private void assertRefused(CliRun run, String line) throws IOException {
        assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
        assertThat(run.err()).isEqualTo(line + "\n");
        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left.map(path -> path.getFileName().toString())).containsExactly("a.npy");
        }
    }
}
