package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.store.Stores;
import dev.tensorbroadcast.job.store.seconddisk.SecondDiskStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The storage seam: a store that only this test knows ({@link SecondDiskStore}, a scheme of its own over a second
 * local directory, registered here and nowhere else) takes {@code expand}'s and {@code reduce}'s datasets through the
 * normal path, with no edit to the pipeline, and they are the bytes a local-disk run writes.
 */
class NewStoreTest {

    @TempDir
    Path dir;

    @Test
    void aRegisteredStoreWritesWhatTheLocalDiskWrites() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("source.npy"), new long[] {1, 3, 5});
        Path gradient = NpyFiles.int32(dir.resolve("gradient.npy"), new long[] {40, 3, 5});
        Path local = Files.createDirectory(dir.resolve("local"));
        Path second = Files.createDirectory(dir.resolve("second"));

        SecondDiskStore.PUBLISHED.clear();
        try (Stores.Registration registered = Stores.register(new SecondDiskStore())) {
            for (boolean onSecond : new boolean[] {false, true}) {
                String out = onSecond ? "seconddisk:" + second : local.toString();
                for (List<String> args : runs(source, gradient, out)) {
                    CliRun run = CliRun.of(args.toArray(String[]::new));
                    assertThat(run.exitCode())
                            .as(String.join(" ", args) + "\n" + run.err())
                            .isZero();
                }
            }
            // verify reads the dataset back through the store and checks each value against the source
            CliRun verify = CliRun.of("verify", "seconddisk:" + second.resolve("zarr"), "--source", source.toString());
            assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
        }
        // the pipeline asked the registered store, not a default: every dataset's small objects went through it
        assertThat(SecondDiskStore.PUBLISHED)
                .containsExactly(
                        "_manifest.json",
                        "_SUCCESS",
                        "_manifest.json",
                        "_SUCCESS",
                        "_manifest.json",
                        "_SUCCESS",
                        "zarr.json",
                        "_manifest.json",
                        "_SUCCESS",
                        "_manifest.json",
                        "_SUCCESS");

        Map<String, byte[]> fromLocal = DriverJobsTest.files(local);
        Map<String, byte[]> fromSecond = DriverJobsTest.files(second);
        assertThat(fromSecond.keySet())
                .containsExactlyElementsOf(fromLocal.keySet())
                .contains(
                        "arrow/part-00003.arrow",
                        "arrow/_manifest.json",
                        "arrow/_SUCCESS",
                        "parquet/part-00001.parquet",
                        "zarr/zarr.json",
                        "zarr/c/0/0/0",
                        "rows/part-00001.parquet");
        for (String name : fromLocal.keySet()) {
            if (name.endsWith("_manifest.json")) {
                assertThat(DriverJobsTest.withoutTime(fromSecond.get(name)))
                        .as(name)
                        .isEqualTo(DriverJobsTest.withoutTime(fromLocal.get(name)));
            } else {
                assertThat(fromSecond.get(name)).as(name).isEqualTo(fromLocal.get(name));
            }
        }
    }

    private static List<List<String>> runs(Path source, Path gradient, String out) {
        return List.of(
                List.of(
                        "expand",
                        "--input",
                        source.toString(),
                        "--dialect",
                        "numpy",
                        "--shape",
                        "[40,3,5]",
                        "--partitions",
                        "3",
                        "--output",
                        out + "/arrow"),
                // an overwrite: the old dataset set aside, then replaced
                List.of(
                        "expand",
                        "--input",
                        source.toString(),
                        "--dialect",
                        "numpy",
                        "--shape",
                        "[40,3,5]",
                        "--partitions",
                        "4",
                        "--overwrite",
                        "--output",
                        out + "/arrow"),
                List.of(
                        "expand",
                        "--input",
                        source.toString(),
                        "--dialect",
                        "numpy",
                        "--shape",
                        "[40,3,5]",
                        "--partitions",
                        "2",
                        "--format",
                        "parquet",
                        "--compression",
                        "zstd",
                        "--output",
                        out + "/parquet"),
                List.of(
                        "expand",
                        "--input",
                        source.toString(),
                        "--dialect",
                        "numpy",
                        "--shape",
                        "[64,3,5]",
                        "--partitions",
                        "4",
                        "--format",
                        "zarr",
                        "--compression",
                        "zstd",
                        "--output",
                        out + "/zarr"),
                List.of(
                        "reduce",
                        "--input",
                        gradient.toString(),
                        "--dialect",
                        "numpy",
                        "--input-shape",
                        "[40,1,5]",
                        "--shape",
                        "[40,3,5]",
                        "--partitions",
                        "2",
                        "--format",
                        "parquet",
                        "--output",
                        out + "/rows"));
    }
}
