package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.TensorReduce;
import dev.tensorbroadcast.job.base.OutputException;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.Shape;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * An output that is, holds, or lies inside an input is refused in one line before anything is touched, however the
 * two are spelled. Before, {@code expand --input D --output D --overwrite} cleared D and then failed reading it (a
 * dataset read in slices), or replaced it by its own broadcast (one shipped whole). Every case checks that the
 * input's directory holds the same files with the same bytes afterwards.
 */
class OutputIsInputTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    Path dir;

    private Path source;
    /** Holds the dataset {@code 0} only, as broadcast-tensors leaves it: an output --overwrite accepts. */
    private Path data;

    private Path dataset;
    private Map<String, String> before;

    @BeforeEach
    void writeDataset() throws Exception {
        source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 8});
        data = Files.createDirectories(dir.resolve("data"));
        dataset = data.resolve("0");
        CliRun run = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "64,8",
                "--partitions",
                "4",
                "--format",
                "parquet",
                "--output",
                dataset.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        before = checksums(data);
        assertThat(before)
                .containsKeys("0/_SUCCESS", "0/_manifest.json", "0/part-00000.parquet", "0/part-00003.parquet");
    }

    private static String refused(String output, String relation, String input, String where) {
        return "Cannot write to '" + output + "': it " + relation + " the input '" + input + "' (" + where + "), and a"
                + " job must not write where it reads; write to a path outside every input, then move the result"
                + " where you want it\n";
    }

    private String real(Path path) throws IOException {
        return "file:" + path.toRealPath();
    }

    private CliRun expand(String output, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "expand",
                "--input",
                dataset.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "64,8",
                "--format",
                "parquet",
                "--output",
                output));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    private void assertRefusedAndUntouched(CliRun run, String line) throws IOException {
        assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
        assertThat(run.err()).isEqualTo(line);
        assertThat(run.out()).isEmpty();
        assertThat(checksums(data)).isEqualTo(before);
    }

    @Test
    void aDatasetReadInSlicesIntoItself() throws Exception {
        CliRun run = expand(dataset.toString(), "--overwrite", "--ship-threshold", "0");

        assertRefusedAndUntouched(run, refused(dataset.toString(), "is", dataset.toString(), "both " + real(dataset)));
    }

    @Test
    void aDatasetShippedWholeIntoItself() throws Exception {
        CliRun run = expand(dataset.toString(), "--overwrite");

        assertRefusedAndUntouched(run, refused(dataset.toString(), "is", dataset.toString(), "both " + real(dataset)));
    }

    @Test
    void intoADirectoryInsideTheInput() throws Exception {
        String output = dataset.resolve("sub").toString();

        CliRun run = expand(output);

        assertRefusedAndUntouched(
                run,
                refused(output, "lies inside", dataset.toString(), real(dataset) + "/sub inside " + real(dataset)));
    }

    @Test
    void intoTheDirectoryThatHoldsTheInput() throws Exception {
        // data holds only the numbered dataset 0: --overwrite would take it for broadcast-tensors' and clear it
        CliRun run = expand(data.toString(), "--overwrite");

        assertRefusedAndUntouched(
                run, refused(data.toString(), "holds", dataset.toString(), real(dataset) + " inside " + real(data)));
    }

    @Test
    void throughDotDot() throws Exception {
        String output = dataset + "/../0";

        CliRun run = expand(output, "--overwrite");

        assertRefusedAndUntouched(run, refused(output, "is", dataset.toString(), "both " + real(dataset)));
    }

    @Test
    void throughASymbolicLinkAbove() throws Exception {
        Path alias = Files.createSymbolicLink(dir.resolve("alias"), data);
        String output = alias.resolve("0").toString();

        CliRun run = expand(output, "--overwrite", "--ship-threshold", "0");

        assertRefusedAndUntouched(run, refused(output, "is", dataset.toString(), "both " + real(dataset)));
    }

    @Test
    void throughASymbolicLinkAsTheOutput() throws Exception {
        Path alias = Files.createSymbolicLink(dir.resolve("alias"), dataset);

        CliRun run = expand(alias.toString(), "--overwrite");

        assertRefusedAndUntouched(run, refused(alias.toString(), "is", dataset.toString(), "both " + real(dataset)));
    }

    @Test
    void withAFileSchemeOnOneSideOnly() throws Exception {
        String output = "file:" + dataset;

        CliRun run = expand(output, "--overwrite", "--ship-threshold", "0");

        assertRefusedAndUntouched(run, refused(output, "is", dataset.toString(), "both " + real(dataset)));
    }

    @Test
    void reduceIntoItsGradient() throws Exception {
        CliRun run = CliRun.of(
                "reduce",
                "--input",
                dataset.toString(),
                "--dialect",
                "numpy",
                "--input-shape",
                "1,8",
                "--shape",
                "64,8",
                "--format",
                "parquet",
                "--output",
                dataset.toString(),
                "--overwrite");

        assertRefusedAndUntouched(run, refused(dataset.toString(), "is", dataset.toString(), "both " + real(dataset)));
    }

    @Test
    void reduceANpyGradientIntoItself() throws Exception {
        Path gradient = NpyFiles.int32(data.resolve("gradient.npy"), new long[] {64, 8});
        before = checksums(data);

        CliRun run = CliRun.of(
                "reduce",
                "--input",
                gradient.toString(),
                "--dialect",
                "numpy",
                "--input-shape",
                "1,8",
                "--shape",
                "64,8",
                "--output",
                gradient.toString(),
                "--overwrite");

        assertRefusedAndUntouched(
                run, refused(gradient.toString(), "is", gradient.toString(), "both " + real(gradient)));
    }

    @Test
    void broadcastTensorsWithAnInputInsideTheOutput() throws Exception {
        CliRun run = CliRun.of(
                "broadcast-tensors",
                "--input",
                source.toString(),
                "--input",
                dataset.toString(),
                "--dialect",
                "numpy",
                "--output",
                data.toString(),
                "--overwrite");

        assertRefusedAndUntouched(
                run, refused(data.toString(), "holds", dataset.toString(), real(dataset) + " inside " + real(data)));
    }

    @Test
    void exportOverOneOfTheDatasetsFiles() throws Exception {
        Path part = dataset.resolve("part-00000.parquet");

        CliRun run = CliRun.of("export", dataset.toString(), "--npy", part.toString(), "--overwrite");

        assertRefusedAndUntouched(
                run,
                refused(part.toString(), "lies inside", dataset.toString(), real(part) + " inside " + real(dataset)));
    }

    @Test
    void theJavaApiRefusesTheSame() throws Exception {
        // prepare() checks, so run() never starts a job
        String parent = data.toString();
        assertThatThrownBy(() -> TensorBroadcast.builder()
                        .source(dataset.toString())
                        .dialect(Dialect.NUMPY)
                        .shape(64, 8)
                        .output(parent)
                        .overwrite(true)
                        .build()
                        .run(SPARK.session()))
                .isInstanceOf(OutputException.class)
                .hasMessage(refused(parent, "holds", dataset.toString(), real(dataset) + " inside " + real(data))
                        .strip());
        assertThatThrownBy(() -> TensorReduce.builder()
                        .gradient(dataset.toString())
                        .dialect(Dialect.NUMPY)
                        .inputShape(Shape.of(1, 8))
                        .shape(64, 8)
                        .output(dataset.toString())
                        .overwrite(true)
                        .build()
                        .run(SPARK.session()))
                .isInstanceOf(OutputException.class)
                .hasMessage(refused(dataset.toString(), "is", dataset.toString(), "both " + real(dataset))
                        .strip());
        assertThat(checksums(data)).isEqualTo(before);
    }

    @Test
    void anOutputBesideTheInputIsWritten() throws Exception {
        // a sibling whose name starts with the input's is not inside it
        CliRun run = expand(dataset + "0", "--ship-threshold", "0");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(checksums(data)).containsAllEntriesOf(before);
        assertThat(data.resolve("00").resolve("_SUCCESS")).exists();
    }

    /** Every file under {@code root}, by its path relative to it, with the SHA-256 of its bytes. */
    static Map<String, String> checksums(Path root) throws IOException {
        Map<String, String> sums = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.filter(Files::isRegularFile).toList()) {
                sums.put(root.relativize(path).toString(), sha256(path));
            }
        }
        return sums;
    }

    private static String sha256(Path file) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
