package dev.tensorbroadcast.arrowio.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.format.TensorFileFormat;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowIpcFormat;
import dev.tensorbroadcast.arrowio.format.npy.NpyFormat;
import dev.tensorbroadcast.arrowio.format.parquet.ParquetFormat;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TensorFileFormatsTest {
    @Test
    void theBuiltInFormatsComeFirstInAFixedOrder() {
        assertThat(TensorFileFormats.all()).extracting(TensorFileFormat::name).startsWith("arrow", "parquet", "npy");
        assertThat(TensorFileFormats.datasetFormats())
                .extracting(TensorFileFormat::name)
                .containsExactly("arrow", "parquet");
    }

    @Test
    void findsAFormatByItsNameAsAUserTypesIt() {
        assertThat(TensorFileFormats.byName(" Parquet ")).contains(new ParquetFormat());
        assertThat(TensorFileFormats.byName("npy")).contains(new NpyFormat());
        assertThat(TensorFileFormats.byName("csv")).isEmpty();
        assertThat(TensorFileFormats.byName(null)).isEmpty();
        // a .npy is a format, never a dataset's
        assertThat(TensorFileFormats.datasetFormat("npy")).isEmpty();
        assertThat(TensorFileFormats.datasetFormat("arrow")).contains(new ArrowIpcFormat());
    }

    @Test
    void recognisesADatasetFileByItsFirstBytesOnly() {
        assertThat(TensorFileFormats.headBytes()).isEqualTo(6);
        assertThat(TensorFileFormats.forFile(bytes("ARROW1\0\0"))).contains(new ArrowIpcFormat());
        assertThat(TensorFileFormats.forFile(bytes("PAR1"))).contains(new ParquetFormat());
        assertThat(TensorFileFormats.forFile(bytes("PAR"))).isEmpty();
        assertThat(TensorFileFormats.forFile(bytes("ARROW"))).isEmpty();
        assertThat(TensorFileFormats.forFile(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'}))
                .isEmpty();
        assertThat(TensorFileFormats.forFileName("part-00003.parquet")).contains(new ParquetFormat());
    }

    @Test
    void saysWhatARowLayoutNeeds() {
        assertThat(new ParquetFormat().whyRowsStayFlat()).isEmpty();
        assertThat(new ArrowIpcFormat().whyRowsStayFlat())
                .contains("Arrow IPC rows are arrow.fixed_shape_tensor," + " which keeps their shape");
        assertThat(new NpyFormat().whyRowsStayFlat()).contains("it writes one array");
        assertThat(new ParquetFormat().splitsFloatStreams()).isTrue();
        assertThat(new ArrowIpcFormat().splitsFloatStreams()).isFalse();
    }

    @Test
    void aRegisteredFormatIsFoundUntilItsRegistrationCloses() {
        TensorFileFormat toy = new Toy();
        try (TensorFileFormats.Registration registration = TensorFileFormats.register(toy)) {
            assertThat(TensorFileFormats.byName("toy")).contains(toy);
            assertThat(TensorFileFormats.all()).last().isEqualTo(toy);
            assertThatThrownBy(() -> TensorFileFormats.register(new Toy()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("a format named 'toy' is registered already");
        }
        assertThat(TensorFileFormats.byName("toy")).isEmpty();
        assertThatThrownBy(() -> TensorFileFormats.register(new ParquetFormat()))
                .hasMessage("a format named 'parquet' is registered already");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** A format with a name only. */
    private record Toy() implements TensorFileFormat {
        @Override
        public String name() {
            return "toy";
        }

        @Override
        public String extension() {
            return ".toy";
        }

        @Override
        public String description() {
            return "toy";
        }

        @Override
        public byte[] magic() {
            return bytes("TOY");
        }

        @Override
        public Optional<String> whyRowsStayFlat() {
            return Optional.of("toys are flat");
        }
    }
}
