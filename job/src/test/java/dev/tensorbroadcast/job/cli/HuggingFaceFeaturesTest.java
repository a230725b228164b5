package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Hugging Face dataset's kept columns keep their features (arrow-io's fixtures/huggingface/class-label, made with
 * {@code datasets}: a {@code ClassLabel} column, which is int64 in the files, its names only in the schema metadata
 * {@code huggingface}): the output's Parquet footer holds the kept columns' features and the nested rows' own, where
 * {@code datasets} reads them (as pyarrow does: the footer's key-value metadata and the stored Arrow schema's).
 */
class HuggingFaceFeaturesTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path dir;

    private CliRun expand(Path output, String... options) throws Exception {
        Path input = ClasspathFixtures.copy("/fixtures/huggingface/class-label", dir.resolve("hf"));
        List<String> arguments = new java.util.ArrayList<>(List.of(
                "expand",
                "--input",
                input.toString(),
                "--column",
                "features",
                "--row-shape",
                "[1,4]",
                "--dialect",
                "pytorch",
                "--shape",
                "[-1,2,4]",
                "--format",
                "parquet",
                "--output",
                output.toString()));
        arguments.addAll(List.of(options));
        return CliRun.of(arguments.toArray(String[]::new));
    }

    /** The footer's {@code huggingface} value and the one in its stored Arrow schema, which must be the same. */
    private static JsonNode features(Path output) throws Exception {
        Path file;
        try (Stream<Path> files = Files.list(output)) {
            file = files.filter(path -> path.toString().endsWith(".parquet"))
                    .findFirst()
                    .orElseThrow();
        }
        Map<String, String> footer;
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
            footer = reader.getFooter().getFileMetaData().getKeyValueMetaData();
        }
        Schema arrow = MessageSerializer.deserializeSchema(new ReadChannel(
                Channels.newChannel(new ByteArrayInputStream(Base64.getDecoder().decode(footer.get("ARROW:schema"))))));
        assertThat(arrow.getCustomMetadata()).containsEntry("huggingface", footer.get("huggingface"));
        return MAPPER.readTree(footer.get("huggingface")).path("info").path("features");
    }

    @Test
    void nestedRowsKeepTheClassLabelAndGiveTheTensorsFeature() throws Exception {
        Path output = dir.resolve("nested");

        CliRun run = expand(output, "--row-layout", "nested", "--keep", "label,user_id");

        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode features = features(output);
        // the kept columns' features as datasets wrote them, the tensor's as [2,4] float32 lists; not the input's
        // tensor column (features) nor the column left out (name)
        assertThat(features).isEqualTo(MAPPER.readTree("""
                {"tensor": {"feature": {"feature": {"dtype": "float32", "_type": "Value"}, "length": 4,
                                        "_type": "Sequence"}, "length": 2, "_type": "Sequence"},
                 "label": {"names": ["cat", "dog", "bird"], "_type": "ClassLabel"},
                 "user_id": {"dtype": "int64", "_type": "Value"}}"""));
        assertThat(run.err()).doesNotContain("Hugging Face dataset,");
    }

    /** Flat rows have no datasets feature: the kept columns' are carried, and the line saying datasets cannot read it. */
    @Test
    void flatRowsCarryTheKeptColumnsFeaturesAndTheHint() throws Exception {
        Path output = dir.resolve("flat");

        CliRun run = expand(output, "--keep", "name,label");

        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode features = features(output);
        assertThat(features.properties()).extracting(Map.Entry::getKey).containsExactly("name", "label");
        assertThat(features.get("label").get("names")).isEqualTo(MAPPER.readTree("[\"cat\", \"dog\", \"bird\"]"));
        assertThat(run.err().lines().toList())
                .last()
                .asString()
                .contains("is a Hugging Face dataset, but datasets" + " cannot read these rows back");
    }

    /** With no column kept there is nothing of the input's to describe: the footer is as for any other input. */
    @Test
    void noKeptColumnWritesNoFeatures() throws Exception {
        Path output = dir.resolve("none");

        CliRun run = expand(output, "--row-layout", "nested", "--keep", "none");

        assertThat(run.exitCode()).as(run.err()).isZero();
        try (Stream<Path> files = Files.list(output)) {
            Path file = files.filter(path -> path.toString().endsWith(".parquet"))
                    .findFirst()
                    .orElseThrow();
            try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
                assertThat(reader.getFooter().getFileMetaData().getKeyValueMetaData())
                        .containsOnlyKeys("ARROW:schema");
            }
        }
    }
}
