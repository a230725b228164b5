package dev.tensorbroadcast.arrowio.format.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.Zstd;
import java.io.InputStream;
import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;

class ZstdPageCompressorTest {
    /** 64 rows of 4096 standard-normal float32 values (a 1 MiB page): the row of tensorstore's chunk fixture. */
    private static byte[] pageOfARepeatedRow() throws Exception {
        byte[] frame;
        try (InputStream in =
                ZstdPageCompressorTest.class.getResourceAsStream("/zarr/tensorstore-repeated-row/c/0/0")) {
            frame = in.readAllBytes();
        }
        byte[] row = Arrays.copyOf(Zstd.decompress(frame, 512 * 4096 * 4), 4096 * 4);
        byte[] page = new byte[64 * row.length];
        for (int r = 0; r < 64; r++) {
            System.arraycopy(row, 0, page, r * row.length, row.length);
        }
        return page;
    }

    @Test
    void aPageOfARepeatedRowIsSmallerThanAOneShotFrameAndDecodesToItsValues() throws Exception {
        byte[] page = pageOfARepeatedRow();
        ZstdPageCompressor compressor = new ZstdPageCompressor(3);
        try {
            byte[] ours = compressor.compress(BytesInput.from(page)).toByteArray();

            // pyarrow (Arrow C++) compresses a page in one ZSTD_compress call, as Zstd.compress does: 16,231 bytes
            // for these values, ours 15,250 (zstd 1.5.7 pre-splits the one-shot blocks; see ZstdFrames). Whole
            // pages as written (levels in front, page header): pyarrow 25.0.1 15,321 bytes, ours 15,291
            byte[] oneShot = Zstd.compress(page, 3);
            assertThat(ours.length).isLessThan(oneShot.length);
            assertThat(Zstd.decompress(ours, page.length)).isEqualTo(page);
            assertThat(compressor.getCodecName()).isEqualTo(CompressionCodecName.ZSTD);
        } finally {
            compressor.release();
        }
    }
}
