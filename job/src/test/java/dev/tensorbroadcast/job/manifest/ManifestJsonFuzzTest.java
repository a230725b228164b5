package dev.tensorbroadcast.job.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * Hostile {@code _manifest.json} bytes: the reader either refuses them with one {@link ManifestException} line, or
 * returns a manifest whose files are all inside the dataset and back to back, and which writes back to itself. Runs
 * over the committed inputs in {@code ManifestJsonFuzzTestInputs} in every build; {@code fuzz/run.sh} fuzzes it (see
 * {@code docs/reliability.md}).
 */
class ManifestJsonFuzzTest {
    @FuzzTest(maxDuration = "5m")
    void readsOrRefusesCleanly(byte[] json) throws IOException {
        Manifest manifest;
        try {
            manifest = ManifestJson.read(new ByteArrayInputStream(json), "_manifest.json");
        } catch (ManifestException e) {
            assertThat(e.getMessage()).startsWith("Cannot ").doesNotContain("\n", "\r");
            return;
        }
        assertThat(manifest.rows()).isNotNegative();
        long next = 0;
        for (DatasetFile file : manifest.files()) {
            // "part-000...arrow" is a name inside the dataset; ".." as a path segment is not
            assertThat(file.path()).doesNotStartWith("/").doesNotContain(":", "\\", "\n", "\u0000");
            assertThat(file.path().split("/", -1)).doesNotContain("", ".", "..");
            assertThat(file.firstRow()).isEqualTo(next);
            next = file.endRow();
        }
        assertThat(next).isEqualTo(manifest.rows());
        byte[] written = ManifestJson.toBytes(manifest);
        assertThat(ManifestJson.read(new ByteArrayInputStream(written), "again.json"))
                .isEqualTo(manifest);
    }
}
