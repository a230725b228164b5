package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.spark.NpyFiles;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code reduce} checks the free space where its result goes, as expand does, and --ignore-free-space lifts it. */
class ReduceFreeSpaceTest {
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
    void aResultLargerThanTheDiskIsRefusedUnlessTold() throws Exception {
        // [300000,2] int32 summed to [300000,1]: 1.1 MiB of values onto a 1 MiB disk
        Path gradient = NpyFiles.int32(dir.resolve("grad.npy"), new long[] {300_000, 2});
        for (String output : new String[] {small.path().resolve("sums.npy").toString(),
                small.path().resolve("sums").toString()}) {
            String[] args = {"reduce", "--input", gradient.toString(), "--dialect", "numpy", "--input-shape",
                "[300000,1]", "--shape", "300000,2", "--output", output, "--dry-run"};
            CliRun refused = CliRun.of(args);
            assertThat(refused.exitCode()).as(refused.err()).isEqualTo(2);
            assertThat(refused.err()).startsWith("Cannot write ").contains(" bytes of files, uncompressed) to ")
                    .contains(": its file system has ").endsWith(" if compression will make it fit\n");
            String[] lifted = java.util.Arrays.copyOf(args, args.length + 1);
            lifted[args.length] = "--ignore-free-space";
            CliRun run = CliRun.of(lifted);
            assertThat(run.exitCode()).as(run.err()).isZero();
        }
    }
}
