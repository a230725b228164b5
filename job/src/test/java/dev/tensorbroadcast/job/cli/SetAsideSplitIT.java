package dev.tensorbroadcast.job.cli;

import static dev.tensorbroadcast.job.cli.OutputIsInputTest.checksums;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.commit.FaultPoint;
import dev.tensorbroadcast.job.commit.OutputLock;
import dev.tensorbroadcast.job.commit.SetAside;
import dev.tensorbroadcast.job.pipeline.DatasetFiles;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * An {@code --overwrite} killed while it moves the old dataset aside, or back after a failure, one rename per entry:
 * the next {@code --overwrite} finds the dataset split between the output and {@code _tensor-broadcast.previous}
 * ({@code _tensor-broadcast.moving} says so) and puts it back together before anything else. The kill is a halt at
 * a fault point in a command line of its own; the next runs are in this JVM.
 */
class SetAsideSplitIT {
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

    /**
     * A run killed between two renames of the set-aside leaves the old dataset split between the output and
     * {@code _tensor-broadcast.previous}; the next {@code --overwrite} puts it back together before anything else, so
     * that even when it fails the old dataset is back whole. Before, that run deleted the part files still at the top
     * as a stopped run's leftovers, and its failure brought back the markers alone (the fault soak's seed
     * 605365714660666254).
     */
    @Test
    void aRunKilledWhileItMovesTheOldDatasetAsideLeavesItForTheNextOverwrite() throws Exception {
        Path output = dir.resolve("split-aside");
        assertThat(runs.expand(output, "64,8").exitCode()).isZero();
        Map<String, String> before = checksums(output);

        halt(output, "overwrite.moving-aside");
        Path aside = output.resolve(SetAside.DIRECTORY);
        assertThat(DatasetFiles.names(aside))
                .contains("_SUCCESS", SetAside.MOVING)
                .doesNotContain("part-00000.arrow");
        assertThat(DatasetFiles.names(output)).contains("part-00000.arrow", "part-00003.arrow");
        CliRun inspected = CliRun.of("inspect", output.toString());
        assertThat(inspected.exitCode()).as(inspected.out() + inspected.err()).isEqualTo(1);
        assertThat(inspected.out() + inspected.err())
                .contains(SetAside.DIRECTORY + " is there")
                .contains("--overwrite");

        assertFailedOverwriteBringsBack(output, before);
    }

    /** The same when the kill comes while a failed run moves the old dataset back: part files back, markers not. */
    @Test
    void aRunKilledWhileItMovesTheOldDatasetBackLeavesItForTheNextOverwrite() throws Exception {
        Path output = dir.resolve("split-back");
        assertThat(runs.expand(output, "64,8").exitCode()).isZero();
        Map<String, String> before = checksums(output);

        halt(
                output,
                "overwrite.moving-back",
                "--conf",
                "spark.hadoop.tensorbroadcast.test.failPartition=0",
                "--conf",
                "spark.hadoop.tensorbroadcast.test.failAttempts=all");
        Path aside = output.resolve(SetAside.DIRECTORY);
        assertThat(DatasetFiles.names(aside)).contains("_SUCCESS", "_manifest.json", SetAside.MOVING);
        assertThat(DatasetFiles.names(output)).contains("part-00000.arrow", "part-00003.arrow");

        assertFailedOverwriteBringsBack(output, before);
    }

    /** An --overwrite of the output halted at {@code point} (exit 137, as a SIGKILL there). */
    private void halt(Path output, String point, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of(
                "-D" + FaultPoint.HALT_AT + "=" + point,
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "32,8",
                "--partitions",
                "4",
                "--output",
                output.toString(),
                "--overwrite",
                "--format",
                "parquet"));
        args.addAll(List.of(more));
        Path log = dir.resolve(point + ".log");
        Process halted = CliProcess.start(Map.of(), log, args.toArray(String[]::new));
        assertThat(halted.waitFor(5, TimeUnit.MINUTES)).as(CliProcess.read(log)).isTrue();
        assertThat(halted.exitValue()).as(CliProcess.read(log)).isEqualTo(137);
    }

    /** The next --overwrite fails: the old dataset is back as it was; then one that succeeds replaces it. */
    private void assertFailedOverwriteBringsBack(Path output, Map<String, String> before) throws Exception {
        runs.failPartitionZero(true);
        CliRun failed = runs.expand(output, "32,8", "--overwrite", "--format", "parquet");
        runs.failPartitionZero(false);
        assertThat(failed.exitCode()).as(failed.err()).isEqualTo(1);
        assertThat(checksums(output)).isEqualTo(before);
        assertThat(DatasetFiles.names(output)).doesNotContain(SetAside.DIRECTORY, OutputLock.FILE_NAME);

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
    }
}
