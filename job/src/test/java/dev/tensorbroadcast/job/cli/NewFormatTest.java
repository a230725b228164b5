package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.SourceLimits;
import dev.tensorbroadcast.arrowio.format.npy.NpyReader;
import dev.tensorbroadcast.arrowio.source.TensorFileFormats;
import dev.tensorbroadcast.job.format.raw.RawFormat;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import dev.tensorbroadcast.planner.Shape;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The format seam: a format that only this test knows ({@link RawFormat}, one package, registered here and nowhere
 * else) is written by {@code expand --format raw}, checked by {@code verify} and read back as {@code expand}'s input,
 * with no edit to the rest of the project.
 */
class NewFormatTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    Path dir;

    @Test
    void aRegisteredFormatRoundTripsThroughExpand() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("a.npy"), new long[] {1, 6});
        Path raw = dir.resolve("raw");
        Path arrow = dir.resolve("arrow");
        Path npy = dir.resolve("out.npy");

        try (TensorFileFormats.Registration registered = TensorFileFormats.register(new RawFormat())) {
            CliRun write = CliRun.of(
                    "expand",
                    "--input",
                    source.toString(),
                    "--dialect",
                    "numpy",
                    "--shape",
                    "[5,6]",
                    "--format",
                    "raw",
                    "--partitions",
                    "2",
                    "--output",
                    raw.toString());
            assertThat(write.exitCode()).as(write.err()).isZero();
            try (Stream<Path> files = Files.list(raw)) {
                assertThat(files.map(path -> path.getFileName().toString()).filter(name -> !name.startsWith("_")))
                        .containsExactlyInAnyOrder("part-00000.raw", "part-00001.raw");
            }
            byte[] first = Files.readAllBytes(raw.resolve("part-00000.raw"));
            assertThat(new String(first, 0, 6, StandardCharsets.US_ASCII)).isEqualTo("RAWTNS");
            assertThat(Files.readString(raw.resolve("_manifest.json"))).containsPattern("\"format\"\\s*:\\s*\"raw\"");

            // verify reads every file back through the format's batch reader and checks each value against the source
            CliRun verify = CliRun.of("verify", raw.toString(), "--source", source.toString());
            assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();

            // the raw dataset as an input: its files recognised by their magic, read in slices by its reader
            CliRun read = CliRun.of(
                    "expand",
                    "--input",
                    raw.toString(),
                    "--column",
                    "tensor",
                    "--dialect",
                    "numpy",
                    "--shape",
                    "[2,5,6]",
                    "--ship-threshold",
                    "0",
                    "--output",
                    arrow.toString());
            assertThat(read.exitCode()).as(read.err()).isZero();
        }

        CliRun export = CliRun.of("export", arrow.toString(), "--npy", npy.toString());
        assertThat(export.exitCode()).as(export.err()).isZero();
        SourceTensor result = new NpyReader(SourceLimits.defaults()).read(npy);
        assertThat(result.shape()).isEqualTo(Shape.of(2, 5, 6));
        ByteBuffer values = ByteBuffer.wrap(Files.readAllBytes(npy)).order(ByteOrder.LITTLE_ENDIAN);
        int data = (int) (Files.size(npy) - 60 * 4);
        for (int i = 0; i < 60; i++) {
            assertThat(values.getInt(data + 4 * i)).as("element %d", i).isEqualTo(NpyFiles.value(i % 6));
        }
    }

    @Test
    void aFormatNobodyRegisteredIsRefusedWithTheNamesThatAre() {
        CliRun run = CliRun.of(
                "expand",
                "--input",
                "a.npy",
                "--dialect",
                "numpy",
                "--shape",
                "[5,6]",
                "--format",
                "raw",
                "--output",
                dir.resolve("out").toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("Cannot use format 'raw': expected arrow, parquet or zarr\n");
    }
}
