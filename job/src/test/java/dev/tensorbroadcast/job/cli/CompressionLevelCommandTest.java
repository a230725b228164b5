package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.spark.DatasetFiles;
import dev.tensorbroadcast.job.spark.NpyFiles;
import dev.tensorbroadcast.job.spark.SparkPerClass;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code --compression zstd:N}: the level reaches the files, the manifest names it, Spark reads them. */
class CompressionLevelCommandTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    Path dir;

    private CliRun expand(Path source, String compression, String format) {
        return CliRun.of("expand", "--input", source.toString(), "--dialect", "numpy", "--shape", "512,4096",
                "--format", format, "--compression", compression, "--output",
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
            assertThat(CliRun.of("verify", dir.resolve(format + "-zstd-19").toString()).exitCode()).isZero();
        }
        List<Row> rows = SPARK.session().read().parquet(dir.resolve("parquet-zstd-19").toString())
                .orderBy("index").collectAsList();
        assertThat(rows).hasSize(512);
        assertThat(rows.get(511).getList(1).get(4095)).isEqualTo(NpyFiles.value(4095));
    }
}
