package dev.tensorbroadcast.arrowio.format.parquet;

import dev.tensorbroadcast.arrowio.format.ZstdFrames;
import java.io.IOException;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Compresses a Parquet page as one zstd frame made by {@link ZstdFrames}: parquet-java's ZSTD codec streams a page
 * through zstd 1.5.7, which pre-splits each full 128 KiB block (larger pages for a broadcast's repeated rows). The
 * compressed bytes are a fresh array per page, so a caller may keep them.
 */
final class ZstdPageCompressor implements BytesInputCompressor {
    private final ZstdFrames frames;

    ZstdPageCompressor(int level) {
        this.frames = new ZstdFrames(level);
    }

    @Override
    public BytesInput compress(BytesInput bytes) throws IOException {
        byte[] page = bytes.toByteArray();
        return BytesInput.from(frames.compress(page, 0, page.length));
    }

    @Override
    public CompressionCodecName getCodecName() {
        return CompressionCodecName.ZSTD;
    }

    @Override
    public void release() {
        frames.close();
    }
}
