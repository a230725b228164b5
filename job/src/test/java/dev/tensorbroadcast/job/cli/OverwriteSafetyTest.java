package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.pipeline.DatasetFiles;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --overwrite} never reaches out of the output directory through a symbolic link, wherever the link is. Each
 * output here looks like one of ours (only names our jobs write, as an interrupted run leaves them) except for the
 * link, so only the link check stands between the run and a deletion outside. Refused runs start no Spark.
 */
class OverwriteSafetyTest {
    @TempDir
    Path dir;

    private Path source;
    private Path elsewhere;

    @BeforeEach
    void writeFiles() throws Exception {
        source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 8});
        // someone else's files, shaped like a dataset of ours
        elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
        Files.writeString(elsewhere.resolve("part-00000.arrow"), "precious");
    }

    private static String notOurs(Path output) {
        return "Cannot overwrite '" + output + "': it is neither empty nor a tensor-broadcast dataset (it holds files"
                + " a tensor-broadcast job does not write, or a _manifest.json that is not ours); --overwrite only"
                + " replaces an empty directory or a tensor-broadcast dataset\n";
    }

    @Test
    void aLinkedPartFileIsNotOurs() throws Exception {
        Path output = Files.createDirectories(dir.resolve("out"));
        Files.writeString(output.resolve("part-00001.arrow"), "ours");
        Files.createSymbolicLink(output.resolve("part-00000.arrow"), elsewhere.resolve("part-00000.arrow"));

        CliRun run = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "6,8",
                "--output",
                output.toString(),
                "--overwrite");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo(notOurs(output));
        assertThat(Files.readString(elsewhere.resolve("part-00000.arrow"))).isEqualTo("precious");
        assertThat(DatasetFiles.names(output)).containsExactlyInAnyOrder("part-00000.arrow", "part-00001.arrow");
    }

    @Test
    void aLinkedNumberedDatasetIsNotOurs() throws Exception {
        // broadcast-tensors writes output/0, output/1: a link named 0 must not make output/0 the link's target
        Path output = Files.createDirectories(dir.resolve("pair"));
        Files.createDirectories(output.resolve("1"));
        Files.writeString(output.resolve("1").resolve("part-00000.arrow"), "ours");
        Files.createSymbolicLink(output.resolve("0"), elsewhere);

        CliRun run = CliRun.of(
                "broadcast-tensors",
                "--input",
                source.toString(),
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--output",
                output.toString(),
                "--overwrite");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo(notOurs(output));
        assertThat(Files.readString(elsewhere.resolve("part-00000.arrow"))).isEqualTo("precious");
        assertThat(Files.isSymbolicLink(output.resolve("0"))).isTrue();
    }

    @Test
    void aLinkedTemporaryDirectoryIsNotOurs() throws Exception {
        // Spark's _temporary is one of our names and is deleted recursively: as a link it would empty its target
        Path output = Files.createDirectories(dir.resolve("out"));
        Files.createSymbolicLink(output.resolve("_temporary"), elsewhere);

        CliRun run = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "6,8",
                "--output",
                output.toString(),
                "--overwrite");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo(notOurs(output));
        assertThat(Files.readString(elsewhere.resolve("part-00000.arrow"))).isEqualTo("precious");
    }

    @Test
    void aDirectoryNamedLikeOurFilesIsNotOurs() throws Exception {
        // clearing deletes our names recursively: a user's directory under one of them must stop it
        Path output = Files.createDirectories(dir.resolve("out"));
        Files.writeString(output.resolve("part-00000.arrow"), "ours");
        Path named = Files.createDirectories(output.resolve("part-00099.arrow"));
        Files.writeString(named.resolve("notes.txt"), "precious");

        CliRun run = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "6,8",
                "--output",
                output.toString(),
                "--overwrite");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo(notOurs(output));
        assertThat(Files.readString(named.resolve("notes.txt"))).isEqualTo("precious");
    }

    @Test
    void aTemporaryDirectoryThatIsNotSparksIsNotOurs() throws Exception {
        Path output = Files.createDirectories(dir.resolve("out"));
        Path staging = Files.createDirectories(output.resolve("_temporary"));
        Files.writeString(staging.resolve("notes.txt"), "precious");

        CliRun run = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "6,8",
                "--output",
                output.toString(),
                "--overwrite");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo(notOurs(output));
        assertThat(Files.readString(staging.resolve("notes.txt"))).isEqualTo("precious");
        // Spark's own layout, as a killed job leaves it, is ours
        Files.delete(staging.resolve("notes.txt"));
        Files.createDirectories(staging.resolve("0").resolve("_temporary"));
        assertThat(dev.tensorbroadcast.job.commit.OutputDirectory.check(
                                output.toString(), true, new org.apache.hadoop.conf.Configuration())
                        .path()
                        .toString())
                .isEqualTo("file:" + output);
    }

    @Test
    void aDatasetsJsonIsOursOnlyBesideNumberedDatasetsAndOnlyAsOurIndex() throws Exception {
        Path output = Files.createDirectories(dir.resolve("pair"));
        Files.createDirectories(output.resolve("0"));
        Files.writeString(output.resolve("0").resolve("part-00000.arrow"), "ours");
        // a user's file of that name beside our numbered datasets is theirs
        Files.writeString(output.resolve("datasets.json"), "{\"mine\": true}");

        CliRun run = CliRun.of(
                "broadcast-tensors",
                "--input",
                source.toString(),
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--output",
                output.toString(),
                "--overwrite");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo(notOurs(output));
        assertThat(Files.readString(output.resolve("datasets.json"))).isEqualTo("{\"mine\": true}");

        // our index is replaced with the datasets
        Files.writeString(
                output.resolve("datasets.json"), "{\"tensor_broadcast\": \"datasets\", \"datasets\": [\"0\"]}");
        CliRun again = CliRun.of(
                "broadcast-tensors",
                "--input",
                source.toString(),
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--output",
                output.toString(),
                "--overwrite");
        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(DatasetFiles.names(output)).containsExactly("0", "1", "datasets.json");

        // inside a single dataset it is nobody's name of ours
        Path single = Files.createDirectories(dir.resolve("single"));
        Files.writeString(single.resolve("part-00000.arrow"), "ours");
        Files.copy(output.resolve("datasets.json"), single.resolve("datasets.json"));
        CliRun inside = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "6,8",
                "--output",
                single.toString(),
                "--overwrite");
        assertThat(inside.exitCode()).isEqualTo(2);
        assertThat(inside.err()).isEqualTo(notOurs(single));
    }

    @Test
    void anIndexAloneIsNotOursWithoutTheDatasetsItNames() throws Exception {
        for (String name : List.of("datasets.json", "datasets.json.staged")) {
            Path output = Files.createDirectories(dir.resolve("alone-" + name));
            Files.writeString(output.resolve(name), "{\"tensor_broadcast\": \"datasets\", \"datasets\": [\"0\"]}");

            CliRun run = CliRun.of(
                    "broadcast-tensors",
                    "--input",
                    source.toString(),
                    "--input",
                    source.toString(),
                    "--dialect",
                    "numpy",
                    "--output",
                    output.toString(),
                    "--overwrite");

            assertThat(run.exitCode()).as(name).isEqualTo(2);
            assertThat(run.err()).isEqualTo(notOurs(output));
            assertThat(DatasetFiles.names(output)).containsExactly(name);
        }
    }

    @Test
    void aKeyValueDirectoryIsOursOnlyWhenItHoldsOnlyOurPartFiles() throws Exception {
        // a partitioned dataset's directory (--partition-by) is replaced; one holding anything else is not ours
        Path ours = Files.createDirectories(dir.resolve("ours"));
        Files.writeString(
                Files.createDirectories(ours.resolve("day=2024-03-01/tag=a")).resolve("part-00000.arrow"), "ours");
        Path theirs = Files.createDirectories(dir.resolve("theirs"));
        Files.writeString(
                Files.createDirectories(theirs.resolve("day=2024-03-01")).resolve("part-00000.arrow"), "ours");
        Files.writeString(theirs.resolve("day=2024-03-01").resolve("notes.txt"), "precious");

        CliRun replaced = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "6,8",
                "--output",
                ours.toString(),
                "--overwrite");
        CliRun refused = CliRun.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "6,8",
                "--output",
                theirs.toString(),
                "--overwrite");

        assertThat(replaced.exitCode()).as(replaced.err()).isZero();
        assertThat(ours.resolve("day=2024-03-01")).doesNotExist();
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.err()).isEqualTo(notOurs(theirs));
        assertThat(Files.readString(theirs.resolve("day=2024-03-01").resolve("notes.txt")))
                .isEqualTo("precious");
    }
}
