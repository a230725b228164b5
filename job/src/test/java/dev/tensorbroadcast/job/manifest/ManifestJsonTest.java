package dev.tensorbroadcast.job.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ManifestJsonTest {
    private static DatasetFile file(String path, long first, long rows) {
        return new DatasetFile(
                path, first / 4, first, rows, 1234, "0a1b2c3d", "1", "127.0.0.1", new SourceRead(first, rows, 0));
    }

    private static Manifest manifest(List<DatasetFile> files, long rows) {
        return new Manifest(
                Manifest.FORMAT_VERSION,
                "0.1.0",
                "2026-11-20T23:00:00Z",
                Map.of("dialect", "numpy", "shape", "[8,3]"),
                List.of(new Manifest.ManifestInput("in.npy", List.of(1L, 3L), "float32")),
                List.of(8L, 3L),
                "float32",
                24,
                96,
                1,
                List.of(3L),
                rows,
                "arrow",
                "none",
                files.size(),
                files);
    }

    private static String text(Manifest manifest) {
        return new String(ManifestJson.toBytes(manifest), StandardCharsets.UTF_8);
    }

    private static Manifest read(String json) throws Exception {
        return ManifestJson.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), "_manifest.json");
    }

    @Test
    void roundTrips() throws Exception {
        Manifest manifest = manifest(List.of(file("part-00000.arrow", 0, 4), file("part-00001.arrow", 4, 4)), 8);
        String json = text(manifest);
        assertThat(json).contains("\"format_version\" : 1", "\"first_row\" : 4", "\"crc32c\" : \"0a1b2c3d\"");
        assertThat(read(json)).isEqualTo(manifest);
    }

    @Test
    void onlyANestedRowLayoutIsWrittenAndAManifestWithoutOneIsFlat() throws Exception {
        Manifest flat = manifest(List.of(file("part-00000.arrow", 0, 8)), 8);
        String json = text(flat);
        // tools that know no row layouts read flat datasets' manifests as before
        assertThat(flat.rowLayout()).isEqualTo("flat");
        assertThat(json).doesNotContain("row_layout");
        assertThat(read(json)).isEqualTo(flat);
        Manifest nested = new Manifest(
                flat.formatVersion(),
                flat.toolVersion(),
                flat.created(),
                flat.request(),
                flat.inputs(),
                flat.shape(),
                flat.dtype(),
                flat.elements(),
                flat.bytes(),
                flat.rowDims(),
                flat.rowShape(),
                flat.rows(),
                "parquet",
                flat.compression(),
                flat.partitions(),
                flat.files(),
                List.of(),
                "nested");
        String nestedJson = text(nested);
        assertThat(nestedJson).contains("\"row_layout\" : \"nested\"");
        assertThat(read(nestedJson)).isEqualTo(nested);
        assertThatThrownBy(() -> read(nestedJson.replace("\"row_layout\" : \"nested\"", "\"row_layout\" : \"deep\"")))
                .hasMessageContaining("its row_layout is 'deep'; expected flat or nested");
    }

    /** An input's --column and --row-shape are written when given, and an older manifest without them reads. */
    @Test
    void anInputsColumnAndRowShapeAreRecordedAndOlderManifestsReadWithout() throws Exception {
        Manifest plain = manifest(List.of(file("part-00000.arrow", 0, 8)), 8);
        String plainJson = text(plain);
        assertThat(plainJson).doesNotContain("\"column\"").doesNotContain("\"row_shape\" : [ 1, 3 ]");
        // an older manifest's input: path, shape and dtype only
        assertThat(plainJson)
                .contains("\"path\" : \"in.npy\",\n    \"shape\" : [ 1, 3 ],\n" + "    \"dtype\" : \"float32\"\n  } ]");
        Manifest.ManifestInput older = read(plainJson).inputs().get(0);
        assertThat(older.column()).isNull();
        assertThat(older.rowShape()).isNull();

        Manifest.ManifestInput given =
                new Manifest.ManifestInput("features", List.of(1L, 3L), "float32", "embedding", List.of(1L, 3L));
        Manifest recorded = new Manifest(
                plain.formatVersion(),
                plain.toolVersion(),
                plain.created(),
                plain.request(),
                List.of(given),
                plain.shape(),
                plain.dtype(),
                plain.elements(),
                plain.bytes(),
                plain.rowDims(),
                plain.rowShape(),
                plain.rows(),
                plain.format(),
                plain.compression(),
                plain.partitions(),
                plain.files(),
                List.of(),
                "flat");
        String json = text(recorded);
        assertThat(json).contains("\"column\" : \"embedding\"", "\"row_shape\" : [ 1, 3 ]");
        assertThat(read(json).inputs()).containsExactly(given);
    }

    @Test
    void totalFileBytesIsDerivedAndNotWritten() throws Exception {
        Manifest manifest = manifest(List.of(file("part-00000.arrow", 0, 4), file("part-00001.arrow", 4, 4)), 8);

        String json = new String(ManifestJson.toBytes(manifest), StandardCharsets.UTF_8);

        assertThat(manifest.totalFileBytes()).isEqualTo(2468);
        assertThat(manifest(List.of(), 0).totalFileBytes()).isZero();
        assertThat(json).doesNotContainIgnoringCase("total").doesNotContain("2468");
    }

    @Test
    void rejectsPathsOutsideTheDataset() {
        for (String path : List.of("../x.arrow", "/etc/passwd", "a/../../b", "", "./a", "C:\\x", "a//b", "s3a://b/x")) {
            assertThatThrownBy(() -> file(path, 0, 8))
                    .as(path)
                    .isInstanceOf(ManifestException.class)
                    .hasMessage("Cannot accept manifest path '" + path + "': a dataset file must be a relative path"
                            + " inside the dataset, such as part-00000.arrow");
        }
        // a line break would forge a line in a report; the message shows it escaped
        assertThatThrownBy(() -> file("part-0.arrow\nOK all good", 0, 8))
                .hasMessage(
                        "Cannot accept manifest path 'part-0.arrow\\nOK all good': a dataset file must be a relative"
                                + " path inside the dataset, such as part-00000.arrow");
        assertThat(file("sub/part-00000.arrow", 0, 8).path()).isEqualTo("sub/part-00000.arrow");
    }

    @Test
    void rejectsGapsMissingRowsAndBadJson() throws Exception {
        assertThatThrownBy(() -> manifest(List.of(file("a.arrow", 0, 4), file("b.arrow", 5, 3)), 8))
                .isInstanceOf(ManifestException.class)
                .hasMessage("Cannot read manifest: file b.arrow starts at row 5 but the previous files end at row 4");
        assertThatThrownBy(() -> manifest(List.of(file("a.arrow", 0, 4)), 8))
                .hasMessage("Cannot read manifest: its files hold 4 rows but the dataset has 8");
        assertThatThrownBy(() -> manifest(
                        List.of(file("a.arrow", 0, Long.MAX_VALUE), file("b.arrow", Long.MAX_VALUE, Long.MAX_VALUE)),
                        -2))
                .hasMessage("Cannot read manifest: negative element, byte, row-dim, row or partition count");
        assertThatThrownBy(() -> manifest(
                        List.of(file("a.arrow", 0, Long.MAX_VALUE), file("b.arrow", Long.MAX_VALUE, Long.MAX_VALUE)),
                        5))
                .hasMessage("Cannot read manifest entry b.arrow: its rows end beyond row 9223372036854775807");
        String json = text(manifest(List.of(file("a.arrow", 0, 8)), 8));
        assertThatThrownBy(() -> read(json.replace("\"a.arrow\"", "\"../a.arrow\"")))
                .isInstanceOf(ManifestException.class)
                .hasMessageContaining("Cannot accept manifest path '../a.arrow'");
        assertThatThrownBy(() -> read(json.substring(0, json.length() / 2)))
                .isInstanceOf(ManifestException.class)
                .hasMessageStartingWith("Cannot read _manifest.json: ");
        assertThatThrownBy(() -> read(json.replace("\"format_version\" : 1", "\"format_version\" : 2")))
                .hasMessage("Cannot read manifest format version 2: this tool reads version 1");
        assertThatThrownBy(() -> read(json.replace("\"0a1b2c3d\"", "\"xyz\"")))
                .hasMessageContaining("crc32c 'xyz' is not 8 lowercase hex digits");
    }
}
