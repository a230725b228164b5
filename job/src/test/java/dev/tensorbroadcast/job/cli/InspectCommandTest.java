package dev.tensorbroadcast.job.cli;

import static dev.tensorbroadcast.job.cli.CliRun.longs;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tensorbroadcast.job.ByteSize;
import dev.tensorbroadcast.job.dataset.TestDatasets;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.planner.Shape;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InspectCommandTest {
    @TempDir
    Path tmp;

    private Manifest write(Path dir) throws Exception {
        return TestDatasets.write(dir, TestDatasets.floats(Shape.of(1, 3), 0.5f), new long[] {4, 3}, "arrow", 2);
    }

    @Test
    void summarizesACompleteDataset() throws Exception {
        Path dir = tmp.resolve("out");
        Manifest manifest = write(dir);
        long bytes = manifest.files().stream().mapToLong(file -> file.bytes()).sum();

        CliRun run = CliRun.of("inspect", dir.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out())
                .isEqualTo(""
                        + "dataset       " + dir + "\n"
                        + "complete      yes\n"
                        + "shape         (4,3)\n"
                        + "dtype         float32\n"
                        + "rows          4 x (3,)\n"
                        + "format        arrow, compression none\n"
                        + "partitions    2\n"
                        + "files         2, " + ByteSize.format(bytes) + " (" + bytes + " bytes)\n"
                        + "request       dialect=numpy shape=[4,3]\n"
                        + "input         source.npy float32 (1,3)\n"
                        + "tool version  test\n"
                        + "created       2025-01-01T00:00:00Z\n");
    }

    @Test
    void summarizesAsJson() throws Exception {
        Path dir = tmp.resolve("out");
        write(dir);

        JsonNode json = CliRun.of("inspect", dir.toString(), "--json").json();

        assertThat(json.get("complete").asBoolean()).isTrue();
        assertThat(json.get("incomplete").size()).isZero();
        assertThat(longs(json.get("shape"))).containsExactly(4, 3);
        assertThat(longs(json.get("row_shape"))).containsExactly(3);
        assertThat(json.get("rows").asLong()).isEqualTo(4);
        assertThat(json.get("files").asInt()).isEqualTo(2);
        assertThat(json.get("request").get("shape").asText()).isEqualTo("[4,3]");
        assertThat(json.get("inputs").get(0).get("path").asText()).isEqualTo("source.npy");
        assertThat(json.get("stray").size()).isZero();
    }

    @Test
    void noSuccessAndAMissingFileMakeItIncomplete() throws Exception {
        Path dir = tmp.resolve("out");
        write(dir);
        Files.delete(dir.resolve("_SUCCESS"));
        Files.delete(dir.resolve("part-00001.arrow"));

        CliRun run = CliRun.of("inspect", dir.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).contains("complete      no: no _SUCCESS; part-00001.arrow is missing\n");
    }

    @Test
    void withoutAManifestTheStrayFilesAreListed() throws Exception {
        Path dir = tmp.resolve("out");
        write(dir);
        Files.delete(dir.resolve("_SUCCESS"));
        Files.delete(dir.resolve("_manifest.json"));
        Files.createDirectory(dir.resolve("_temporary"));
        long size = Files.size(dir.resolve("part-00000.arrow"));

        CliRun text = CliRun.of("inspect", dir.toString());
        JsonNode json = CliRun.of("inspect", dir.toString(), "--json").json();

        assertThat(text.exitCode()).isEqualTo(1);
        assertThat(text.out())
                .isEqualTo(""
                        + "dataset       " + dir + "\n"
                        + "complete      no: no _manifest.json; no _SUCCESS\n"
                        + "stray         _temporary/\n"
                        + "stray         part-00000.arrow (" + ByteSize.format(size) + ")\n"
                        + "stray         part-00001.arrow (" + ByteSize.format(size) + ")\n");
        assertThat(json.get("complete").asBoolean()).isFalse();
        assertThat(json.has("shape")).isFalse();
        assertThat(json.get("stray").get(1).get("path").asText()).isEqualTo("part-00000.arrow");
        assertThat(json.get("stray").get(1).get("bytes").asLong()).isEqualTo(size);
    }

    @Test
    void aDirectoryHoldingOnlyAnUnfinishedWriteIsIncompleteNotAStranger() throws Exception {
        // what a driver killed before the job commit leaves: attempts under Spark's _temporary, nothing else
        Path dir = tmp.resolve("killed");
        Path attempt = Files.createDirectories(dir.resolve("_temporary/0/_temporary/attempt_1_0001_m_000003_0"));
        Files.write(attempt.resolve("part-00003.arrow"), new byte[16]);
        Files.createDirectories(dir.resolve("_temporary/0/task_1_0001_m_000000"));

        CliRun inspect = CliRun.of("inspect", dir.toString());
        CliRun verify = CliRun.of("verify", dir.toString());

        assertThat(inspect.exitCode()).as(inspect.err()).isEqualTo(1);
        assertThat(inspect.out())
                .isEqualTo(""
                        + "dataset       " + dir + "\n"
                        + "complete      no: no _manifest.json; no _SUCCESS\n"
                        + "stray         _temporary/\n");
        assertThat(verify.exitCode()).as(verify.err()).isEqualTo(1);
        assertThat(verify.out())
                .isEqualTo("no _manifest.json: the dataset is incomplete, so nothing can be checked\n" + "FAILED: "
                        + dir + ": 1 problem\n");
    }

    @Test
    void aMissingDirectoryAFileAndAnEmptyDirectoryAreRefused() throws Exception {
        Path empty = Files.createDirectory(tmp.resolve("empty"));
        Path file = Files.write(tmp.resolve("file"), new byte[1]);

        CliRun missing = CliRun.of("inspect", tmp.resolve("nothing").toString());
        CliRun notADirectory = CliRun.of("inspect", file.toString());
        CliRun notADataset = CliRun.of("inspect", empty.toString(), "--json");

        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.out()).isEmpty();
        assertThat(missing.err()).isEqualTo("Cannot inspect " + tmp.resolve("nothing") + ": no such directory\n");
        assertThat(notADirectory.exitCode()).isEqualTo(2);
        assertThat(notADirectory.err())
                .isEqualTo("Cannot inspect " + file + ": it is a file; expected a dataset"
                        + " directory holding _manifest.json, _SUCCESS and part-* files\n");
        assertThat(notADataset.exitCode()).isEqualTo(2);
        assertThat(notADataset.json().get("error").get("kind").asText()).isEqualTo("dataset");
        assertThat(notADataset.json().get("error").get("message").asText())
                .isEqualTo("Cannot inspect " + empty
                        + ": it is not a tensor-broadcast dataset (no _manifest.json, _SUCCESS or part-* files)");
    }

    @Test
    void aBrokenManifestIsRefusedInOneLine() throws Exception {
        Path dir = tmp.resolve("out");
        write(dir);
        Files.writeString(dir.resolve("_manifest.json"), "{\"format_version\": 1,");

        CliRun run = CliRun.of("inspect", dir.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith("Cannot read " + dir + "/_manifest.json: ");
        assertThat(run.err().lines()).hasSize(1);
    }
}
