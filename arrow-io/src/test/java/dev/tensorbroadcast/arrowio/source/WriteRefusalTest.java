package dev.tensorbroadcast.arrowio.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.format.Compression;
import dev.tensorbroadcast.arrowio.format.OutputCompression;
import dev.tensorbroadcast.arrowio.format.RowLayout;
import dev.tensorbroadcast.arrowio.format.TensorFileFormat;
import dev.tensorbroadcast.arrowio.format.WriteSettings;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Param;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * Each format says in one line which of a write's settings it cannot honour ({@link TensorFileFormat#refusal}), and
 * the settings check their own values once ({@link WriteSettings}).
 */
class WriteRefusalTest {
    private static final WriteSettings NESTED = new WriteSettings(0, Compression.NONE, false, RowLayout.NESTED);
    private static final WriteSettings SPLIT = new WriteSettings(0, Compression.NONE, true, RowLayout.FLAT);
    private static final WriteSettings ROW_GROUPS = new WriteSettings(2 << 20, Compression.NONE, false, RowLayout.FLAT);

    @Test
    void eachFormatRefusesExactlyTheOptionsItCannotHonour() {
        List<String> refused = new ArrayList<>();
        for (String name : List.of("arrow", "parquet", "zarr", "npy")) {
            TensorFileFormat format = TensorFileFormats.byName(name).orElseThrow();
            assertThat(format.refusal(WriteSettings.defaults())).as(name).isEmpty();
            if (format.refusal(NESTED).isPresent()) {
                refused.add(name + " nested");
            }
            if (format.refusal(SPLIT).isPresent()) {
                refused.add(name + " byte-stream-split");
            }
            if (format.refusal(ROW_GROUPS).isPresent()) {
                refused.add(name + " row groups");
            }
        }
        assertThat(refused)
                .containsExactly(
                        "arrow nested",
                        "arrow byte-stream-split",
                        "zarr nested",
                        "zarr byte-stream-split",
                        "zarr row groups",
                        "npy nested",
                        "npy byte-stream-split",
                        "npy row groups");
    }

    @Test
    void theFirstOptionRefusedIsTheOneSaid() {
        TensorFileFormat npy = TensorFileFormats.byName("npy").orElseThrow();
        WriteSettings all = new WriteSettings(2 << 20, Compression.of(OutputCompression.ZSTD), true, RowLayout.NESTED);
        assertThat(Param.commandLineText(npy.refusal(all).orElseThrow()))
                .isEqualTo("Cannot use --row-layout"
                        + " nested with format npy: it writes one array; nested rows are for Parquet readers (Spark, DuckDB,"
                        + " polars); add --format parquet");
        assertThat(Param.commandLineText(npy.refusal(new WriteSettings(2 << 20, Compression.NONE, true, RowLayout.FLAT))
                        .orElseThrow()))
                .isEqualTo("Cannot use --row-group-size with format npy: a .npy file"
                        + " is one array, without row groups or record batches; drop --row-group-size, or write a dataset"
                        + " directory with --format arrow or parquet");
        assertThat(Param.commandLineText(TensorFileFormats.byName("zarr")
                        .orElseThrow()
                        .refusal(ROW_GROUPS)
                        .orElseThrow()))
                .isEqualTo("Cannot use --row-group-size with format zarr: an array is cut into chunks,"
                        + " not row groups; give --chunks instead");
        assertThat(Param.apiText(TensorFileFormats.byName("arrow")
                        .orElseThrow()
                        .refusal(SPLIT)
                        .orElseThrow()))
                .isEqualTo("Cannot use byteStreamSplit(true) with format arrow: it is a Parquet encoding; add"
                        + " format(OutputFormat.PARQUET)");
    }

    @Test
    void aRowGroupSizeIsCheckedOnceWhereverItIsGiven() {
        String refused = "Cannot use row group size 0 bytes: expected 1m to 1g (each task holds one group's buffers;"
                + " the default is 32m)";
        assertThatThrownBy(() -> WriteSettings.of(OptionalLong.of(0), Compression.NONE, false, RowLayout.FLAT))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage(refused);
        assertThatThrownBy(() -> new WriteSettings(1L << 31, Compression.NONE, false, RowLayout.FLAT))
                .hasMessageContaining("row group size 2147483648 bytes");
        assertThat(WriteSettings.of(OptionalLong.empty(), Compression.NONE, false, RowLayout.FLAT)
                        .batchBytes())
                .isEqualTo(WriteSettings.DEFAULT_ROW_GROUP_BYTES);
        assertThat(ROW_GROUPS.givenRowGroupBytes()).hasValue(2 << 20);
    }
}
