package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.commit.OutputDirectory;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A disk that fills up mid-job, on a 1 MiB tmpfs mounted for the test (which needs root; skipped with the reason
 * otherwise): the run ends with one line and exit 1, and leaves only what {@code --overwrite} replaces.
 */
class DiskFullTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    Path dir;

    private TmpfsMount small;

    @BeforeEach
    void mountASmallDisk() throws Exception {
        small = TmpfsMount.at(dir.resolve("small"), "size=1m");
    }

    @AfterEach
    void unmount() throws Exception {
        small.close();
    }

    @Test
    void aFullDiskIsOneLineAndLeavesWhatOverwriteReplaces() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 1024});
        Path output = small.path().resolve("out");
        // 4 MiB of values onto a 1 MiB disk; the free-space guard would refuse it before Spark, so it is lifted
        CliRun run = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "1024,1024",
                "--partitions",
                "4",
                "--output",
                output.toString(),
                "--ignore-free-space");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err().lines().toList())
                .last()
                .asString()
                .startsWith("Cannot write '" + "file:" + output + "': the Spark job failed: ")
                .contains("No space left on device");
        assertThat(run.err().lines().filter(line -> line.startsWith("Cannot"))).hasSize(1);
        // nothing that reads as a dataset, and nothing --overwrite would refuse
        assertThat(output.resolve("_SUCCESS")).doesNotExist();
        assertThat(output.resolve("_manifest.json")).doesNotExist();
        assertThat(OutputDirectory.check(output.toString(), true, new Configuration())
                        .path()
                        .toString())
                .isEqualTo("file:" + output);
    }

    /**
     * An {@code --overwrite} onto a disk already full: setting the old dataset aside writes no data (renames, and an
     * empty directory marking the move), so the run fails in the job with one line and the old dataset comes back
     * byte for byte (the fault soak's seed 5110700251786911198 found a marker file whose checksum could not be written).
     */
    @Test
    void anOverwriteOntoAFullDiskLeavesTheOldDatasetAsItWas() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 1024});
        Path output = small.path().resolve("out");
        CliRun first = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "16,1024",
                "--partitions",
                "2",
                "--output",
                output.toString());
        assertThat(first.exitCode()).as(first.err()).isZero();
        Map<String, String> before = OutputIsInputTest.checksums(output);
        // the rest of the disk taken by another file, as the soak's full disk takes it
        Path filler = small.path().resolve("filler");
        try (OutputStream out = Files.newOutputStream(filler)) {
            byte[] block = new byte[4096];
            while (true) {
                out.write(block);
                out.flush();
            }
        } catch (IOException full) {
            // the disk is full
        }
        // but for one page: room for the lock (the soak fills the disk once the lock is there), none for the job
        try (FileChannel channel = FileChannel.open(filler, StandardOpenOption.WRITE)) {
            channel.truncate(channel.size() - 4096);
        }

        CliRun run = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "64,1024",
                "--partitions",
                "4",
                "--format",
                "parquet",
                "--output",
                output.toString(),
                "--overwrite",
                "--ignore-free-space");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
        assertThat(run.err()).doesNotContain("\tat ").doesNotContain("Exception in thread");
        assertThat(run.err().lines().filter(line -> line.startsWith("Cannot"))).hasSize(1);
        assertThat(OutputIsInputTest.checksums(output)).isEqualTo(before);
    }

    /** reduce checks the free space where its result goes, as expand does, and --ignore-free-space lifts it. */
    @Test
    void aReduceResultLargerThanTheDiskIsRefusedUnlessTold() throws Exception {
        // [300000,2] int32 summed to [300000,1]: 1.1 MiB of values onto a 1 MiB disk
        Path gradient = NpyFiles.int32(dir.resolve("grad.npy"), new long[] {300_000, 2});
        for (String output : new String[] {
            small.path().resolve("sums.npy").toString(),
            small.path().resolve("sums").toString()
        }) {
            String[] args = {
                "reduce",
                "--input",
                gradient.toString(),
                "--dialect",
                "numpy",
                "--input-shape",
                "[300000,1]",
                "--shape",
                "300000,2",
                "--output",
                output,
                "--dry-run"
            };
            CliRun refused = CliRun.of(args);
            assertThat(refused.exitCode()).as(refused.err()).isEqualTo(2);
            assertThat(refused.err())
                    .startsWith("Cannot write ")
                    .contains(" bytes of files, uncompressed) to ")
                    .contains(": its file system has ")
                    .endsWith(" if compression will make it fit\n");
            String[] lifted = Arrays.copyOf(args, args.length + 1);
            lifted[args.length] = "--ignore-free-space";
            CliRun run = CliRun.of(lifted);
            assertThat(run.exitCode()).as(run.err()).isZero();
        }
    }
}
