package dev.tensorbroadcast.job.cli;

import static dev.tensorbroadcast.job.cli.OutputIsInputTest.checksums;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.commit.OutputLock;
import dev.tensorbroadcast.job.commit.SetAside;
import dev.tensorbroadcast.job.pipeline.DatasetFiles;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job that fails after {@code --overwrite} accepted its output leaves the dataset it was to replace as it was: the
 * old one is set aside while the new one is written, and moved back when the job fails. Before, it was deleted before
 * the job started, and a failed job left an empty directory.
 */
class FailedOverwriteTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    Path dir;

    private Path source;
    private OverwriteRuns runs;

    @BeforeEach
    void writeSource() throws Exception {
        source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 8});
        runs = new OverwriteRuns(SPARK, source);
    }

    @AfterEach
    void stopFailing() {
        runs.failPartitionZero(false);
    }

    @Test
    void aFailedExpandLeavesTheOldDatasetAsItWas() throws Exception {
        Path output = dir.resolve("out");
        assertThat(runs.expand(output, "64,8").exitCode()).isZero();
        Map<String, String> before = checksums(output);

        runs.failPartitionZero(true);
        CliRun failed = runs.expand(output, "32,8", "--overwrite", "--format", "parquet");
        runs.failPartitionZero(false);

        assertThat(failed.exitCode()).as(failed.err()).isEqualTo(1);
        assertThat(failed.err()).contains("injected failure in partition 0, attempt ");
        assertThat(checksums(output)).isEqualTo(before);
        assertThat(DatasetFiles.names(output)).doesNotContain(SetAside.DIRECTORY, OutputLock.FILE_NAME);
        assertThat(CliRun.of("verify", output.toString(), "--source", source.toString())
                        .exitCode())
                .isZero();

        // and a run that succeeds replaces it, keeping nothing of the old one
        CliRun replaced = runs.expand(output, "32,8", "--overwrite", "--format", "parquet");
        assertThat(replaced.exitCode()).as(replaced.err()).isZero();
        assertThat(DatasetFiles.names(output))
                .containsExactlyInAnyOrder(
                        "_SUCCESS",
                        "_manifest.json",
                        "part-00000.parquet",
                        "part-00001.parquet",
                        "part-00002.parquet",
                        "part-00003.parquet");
        assertThat(CliRun.of("verify", output.toString(), "--source", source.toString())
                        .exitCode())
                .isZero();
    }

    @Test
    void aFailedBroadcastTensorsLeavesTheOldDatasetsAsTheyWere() throws Exception {
        Path output = dir.resolve("pair");
        CliRun first = CliRun.of(
                "broadcast-tensors",
                "--input",
                source.toString(),
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--output",
                output.toString());
        assertThat(first.exitCode()).as(first.err()).isZero();
        Map<String, String> before = checksums(output);

        runs.failPartitionZero(true);
        CliRun failed = CliRun.of(
                "broadcast-tensors",
                "--input",
                source.toString(),
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--format",
                "parquet",
                "--output",
                output.toString(),
                "--overwrite");
        runs.failPartitionZero(false);

        assertThat(failed.exitCode()).as(failed.err()).isEqualTo(1);
        assertThat(checksums(output)).isEqualTo(before);
        assertThat(DatasetFiles.names(output)).containsExactlyInAnyOrder("0", "1", "datasets.json");
    }

    @Test
    void aRunStoppedWithTheOldDatasetAsideGetsItBackFromTheNextFailedRun() throws Exception {
        // what a driver killed mid-job leaves: the old dataset aside, the killed job's staging beside it, its lock
        Path output = dir.resolve("out");
        assertThat(runs.expand(output, "64,8").exitCode()).isZero();
        Map<String, String> before = checksums(output);
        Path aside = Files.createDirectories(output.resolve(SetAside.DIRECTORY));
        try (Stream<Path> entries = Files.list(output)) {
            for (Path entry : entries.filter(path -> !path.equals(aside)).toList()) {
                Files.move(entry, aside.resolve(entry.getFileName()));
            }
        }
        Files.createDirectories(output.resolve("_temporary").resolve("0").resolve("_temporary"));
        Files.writeString(output.resolve("part-00001.arrow"), "half of a killed job's file");
        CliRun inspect = CliRun.of("inspect", output.toString());
        assertThat(inspect.exitCode()).isEqualTo(1);
        assertThat(inspect.out())
                .contains("complete      no: no _manifest.json; no _SUCCESS; " + SetAside.DIRECTORY
                        + " is there: the dataset an --overwrite was replacing when it was stopped; move its entries back, or"
                        + " rerun with --overwrite\n");

        runs.failPartitionZero(true);
        CliRun failed = runs.expand(output, "32,8", "--overwrite");
        runs.failPartitionZero(false);

        assertThat(failed.exitCode()).as(failed.err()).isEqualTo(1);
        assertThat(checksums(output)).isEqualTo(before);
        assertThat(DatasetFiles.names(output)).doesNotContain(SetAside.DIRECTORY, "_temporary");
    }

    @Test
    void aCompleteDatasetBesideAnOldOneAsideIsTheOneKept() throws Exception {
        // a run that finished but was stopped before it deleted what it had set aside: the new dataset is the one
        Path output = dir.resolve("out");
        assertThat(runs.expand(output, "64,8").exitCode()).isZero();
        Map<String, String> before = checksums(output);
        Path aside = Files.createDirectories(output.resolve(SetAside.DIRECTORY));
        Files.writeString(aside.resolve("part-00000.arrow"), "an older dataset's file");

        runs.failPartitionZero(true);
        CliRun failed = runs.expand(output, "32,8", "--overwrite");
        runs.failPartitionZero(false);

        assertThat(failed.exitCode()).as(failed.err()).isEqualTo(1);
        assertThat(checksums(output)).isEqualTo(before);
    }
}
