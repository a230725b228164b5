package dev.tensorbroadcast.arrowio.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.arrowio.format.Compression;
import dev.tensorbroadcast.arrowio.format.OutputCompression;
import dev.tensorbroadcast.arrowio.format.TensorFileFormat;
import dev.tensorbroadcast.planner.Param;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each built-in format says which codecs it refuses, in the one line a user reads, in either audience's words. */
class CompressionRefusalTest {
    @Test
    void eachFormatRefusesExactlyTheCodecsItHasNot() {
        List<String> refused = new ArrayList<>();
        for (String name : List.of("arrow", "parquet", "zarr", "npy")) {
            TensorFileFormat format = TensorFileFormats.byName(name).orElseThrow();
            for (OutputCompression codec : OutputCompression.values()) {
                if (format.refusal(Compression.of(codec)).isPresent()) {
                    refused.add(name + " " + codec);
                }
            }
        }
        assertThat(refused)
                .containsExactly("arrow gzip", "parquet gzip", "zarr lz4", "npy lz4", "npy zstd", "npy gzip");
    }

    @Test
    void aRefusalNamesWhatTheFormatRefuses() {
        TensorFileFormat arrow = TensorFileFormats.byName("arrow").orElseThrow();
        TensorFileFormat npy = TensorFileFormats.byName("npy").orElseThrow();
        String gzip = arrow.refusal(new Compression(OutputCompression.GZIP, 4)).orElseThrow();
        String zstd = npy.refusal(new Compression(OutputCompression.ZSTD, 9)).orElseThrow();

        // part files refuse the codec, whatever its level; a .npy refuses the compression as given
        assertThat(Param.commandLineText(gzip))
                .isEqualTo("Cannot use --compression gzip with format arrow: gzip"
                        + " is Zarr's codec here; arrow and parquet files take none, lz4 or zstd");
        assertThat(Param.apiText(zstd))
                .isEqualTo("Cannot use compression(zstd:9) with format npy: a .npy file is"
                        + " written uncompressed; drop compression, or write a dataset directory with format(ARROW or"
                        + " PARQUET)");
        assertThat(TensorFileFormats.byName("zarr").orElseThrow().refusal(Compression.of(OutputCompression.GZIP)))
                .isEmpty();
    }
}
