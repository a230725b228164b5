package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.pipeline.DatasetFiles;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --compression zstd:N} and {@code --row-group-size}: they reach the files, the manifest names the level,
 * Spark reads them.
 */
class CompressionLevelCommandTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    Path dir;

    private CliRun expand(Path source, String compression, String format) {
        return CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "512,4096",
                "--format",
                format,
                "--compression",
                compression,
                "--output",
                dir.resolve(format + "-" + compression.replace(':', '-')).toString());
    }

    @Test
    void aLevelIsWrittenNamedAndReadBack() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 4096});
        for (String format : List.of("parquet", "arrow")) {
            CliRun fast = expand(source, "zstd:1", format);
            CliRun small = expand(source, "zstd:19", format);
            assertThat(fast.exitCode()).as(fast.err()).isZero();
            assertThat(small.exitCode()).as(small.err()).isZero();
            Manifest fastManifest = DatasetFiles.manifest(dir.resolve(format + "-zstd-1"));
            Manifest smallManifest = DatasetFiles.manifest(dir.resolve(format + "-zstd-19"));
            assertThat(smallManifest.compression()).isEqualTo("zstd:19");
            assertThat(fastManifest.compression()).isEqualTo("zstd:1");
            assertThat(smallManifest.totalFileBytes()).as(format).isLessThan(fastManifest.totalFileBytes());
            // bytes on disk and the values they hold, told apart
            assertThat(small.out().strip())
                    .matches("wrote .*: 512 rows of \\[4096] int32 in 1 " + format
                            + " file: [0-9.]+ KiB on disk \\(zstd:19\\), 8\\.0 MiB of values, in [0-9.]+ s \\([0-9.]+ [KMG]?i?B/s"
                            + " of values\\)");
            assertThat(CliRun.of("verify", dir.resolve(format + "-zstd-19").toString())
                            .exitCode())
                    .isZero();
        }
        List<Row> rows = SPARK.session()
                .read()
                .parquet(dir.resolve("parquet-zstd-19").toString())
                .orderBy("index")
                .collectAsList();
        assertThat(rows).hasSize(512);
        assertThat(rows.get(511).getList(1).get(4095)).isEqualTo(NpyFiles.value(4095));
    }

    @Test
    void rowGroupsHoldAboutTheSizeAsked() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 4096});
        Path output = dir.resolve("groups");

        CliRun run = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "512,4096",
                "--format",
                "parquet",
                "--partitions",
                "1",
                "--row-group-size",
                "1m",
                "--output",
                output.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(
                output.resolve("part-00000.parquet").toUri());
        try (org.apache.parquet.hadoop.ParquetFileReader reader = org.apache.parquet.hadoop.ParquetFileReader.open(
                org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(
                        file, new org.apache.hadoop.conf.Configuration()))) {
            // rows of 16 KiB of values, 512 B of validity and 8 B of index: 62 rows in 1 MiB, 9 groups for 512
            assertThat(reader.getRowGroups()).hasSize(9);
            assertThat(reader.getRowGroups().get(0).getRowCount()).isEqualTo(62);
        }
        CliRun tiny = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "512,4096",
                "--row-group-size",
                "10k",
                "--output",
                dir.resolve("tiny").toString());
        assertThat(tiny.exitCode()).isEqualTo(2);
        assertThat(tiny.err().strip())
                .isEqualTo("Cannot use row group size 10240 bytes: expected 1m to 1g (each task"
                        + " holds one group's buffers; the default is 32m)");
    }
}
