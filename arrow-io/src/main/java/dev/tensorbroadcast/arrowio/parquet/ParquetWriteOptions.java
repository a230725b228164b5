package dev.tensorbroadcast.arrowio.parquet;

import static java.util.Objects.requireNonNull;

import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * How Parquet pages are written: the codec, and the target size of a data page's values (a page always holds whole
 * rows, at least one).
 */
public record ParquetWriteOptions(CompressionCodecName codec, long pageBytes) {
    public static final long DEFAULT_PAGE_BYTES = 1L << 20;

    public ParquetWriteOptions {
        requireNonNull(codec, "codec is null");
        if (pageBytes <= 0) {
            throw new IllegalArgumentException("pageBytes must be positive: " + pageBytes);
        }
    }

    public static ParquetWriteOptions defaults() {
        return new ParquetWriteOptions(CompressionCodecName.UNCOMPRESSED, DEFAULT_PAGE_BYTES);
    }

    public ParquetWriteOptions withCodec(CompressionCodecName codec) {
        return new ParquetWriteOptions(codec, pageBytes);
    }
}
