package dev.tensorbroadcast.arrowio.format.parquet;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.format.RowLayout;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * How Parquet pages are written: the codec, and the target size of a data page's values (a page always holds whole
 * rows, at least one).
 */
public record ParquetWriteOptions(
        CompressionCodecName codec,
        long pageBytes,
        int compressionLevel,
        boolean byteStreamSplit,
        boolean reuseRepeats,
        RowLayout rowLayout) {
    public static final long DEFAULT_PAGE_BYTES = 1L << 20;

    /**
     * @param compressionLevel the ZSTD level (1 to 22), or 0 for the codec's default (3); other codecs take none
     * @param byteStreamSplit whether float and double values are written BYTE_STREAM_SPLIT rather than PLAIN
     * @param reuseRepeats whether a tensor page of the same values as an earlier one, as the copy program proves,
     *     takes its compressed bytes instead of being compressed again (the file is the same either way)
     * @param rowLayout whether a row is one flat list or lists nested one level per dimension
     */
    public ParquetWriteOptions {
        requireNonNull(codec, "codec is null");
        requireNonNull(rowLayout, "rowLayout is null");
        if (pageBytes <= 0) {
            throw new IllegalArgumentException("pageBytes must be positive: " + pageBytes);
        }
        if (compressionLevel != 0
                && (codec != CompressionCodecName.ZSTD || compressionLevel < 1 || compressionLevel > 22)) {
            throw new IllegalArgumentException("Cannot use compression level " + compressionLevel + " with " + codec
                    + ": ZSTD takes 1 to 22, other codecs none");
        }
    }

    public ParquetWriteOptions(CompressionCodecName codec, long pageBytes) {
        this(codec, pageBytes, 0, false, true, RowLayout.FLAT);
    }

    public static ParquetWriteOptions defaults() {
        return new ParquetWriteOptions(CompressionCodecName.UNCOMPRESSED, DEFAULT_PAGE_BYTES);
    }

    public ParquetWriteOptions withCodec(CompressionCodecName codec) {
        return new ParquetWriteOptions(codec, pageBytes, 0, byteStreamSplit, reuseRepeats, rowLayout);
    }

    /** The same codec at {@code level} (ZSTD only; 0 is the codec's default). */
    public ParquetWriteOptions withCompressionLevel(int level) {
        return new ParquetWriteOptions(codec, pageBytes, level, byteStreamSplit, reuseRepeats, rowLayout);
    }

    /** Float and double values in BYTE_STREAM_SPLIT (readers since parquet-format 2.8: pyarrow, Spark, DuckDB). */
    public ParquetWriteOptions withByteStreamSplit(boolean split) {
        return new ParquetWriteOptions(codec, pageBytes, compressionLevel, split, reuseRepeats, rowLayout);
    }

    public ParquetWriteOptions withRepeatsReused(boolean reuse) {
        return new ParquetWriteOptions(codec, pageBytes, compressionLevel, byteStreamSplit, reuse, rowLayout);
    }

    /** Rows as one flat list (the default) or as lists nested one level per dimension. */
    public ParquetWriteOptions withRowLayout(RowLayout layout) {
        return new ParquetWriteOptions(codec, pageBytes, compressionLevel, byteStreamSplit, reuseRepeats, layout);
    }
}
