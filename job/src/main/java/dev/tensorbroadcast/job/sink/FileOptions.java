package dev.tensorbroadcast.job.sink;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.TensorBatch;
import dev.tensorbroadcast.arrowio.format.ArrayChunking;
import dev.tensorbroadcast.arrowio.format.ArrayFileFormat;
import dev.tensorbroadcast.arrowio.format.ArrayLayout;
import dev.tensorbroadcast.arrowio.format.Compression;
import dev.tensorbroadcast.arrowio.format.DatasetFileFormat;
import dev.tensorbroadcast.arrowio.format.RowLayout;
import dev.tensorbroadcast.arrowio.format.TensorFileFormat;
import dev.tensorbroadcast.arrowio.format.WriteSettings;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowIpcFormat;
import dev.tensorbroadcast.arrowio.source.TensorFileFormats;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Param;
import dev.tensorbroadcast.planner.PartitionPlan;
import java.io.Serializable;
import java.util.Optional;

/**
 * How a dataset's files are written: the format, the codec and its level, the bytes of values per Parquet row group
 * (and Arrow record batch), whether Parquet floats go BYTE_STREAM_SPLIT, and how Parquet lays out a row: the files'
 * part of a {@code WriteSpec} (the API's request), which checks the options against each other when built. The
 * level is checked by {@link Compression}, the row-group size here; BYTE_STREAM_SPLIT against the values' dtype when
 * the request is prepared.
 *
 * @param format a {@link DatasetFileFormat} (part files) or an {@link ArrayFileFormat} (one chunked array)
 * @param compression the codec and its level, checked by {@link Compression}
 * @param rowGroupBytes 1 MiB to 1 GiB, at least one row each; a task holds one group's buffers
 * @param rowLayout one flat list per row (default) or lists nested one level per dimension (Parquet only)
 * @param chunking an array's chunks and shards ({@code --chunks}, {@code --shard}); the default for part files
 */
public record FileOptions(TensorFileFormat format, Compression compression, long rowGroupBytes,
        boolean byteStreamSplit, RowLayout rowLayout, ArrayChunking chunking)
        implements Serializable {
    public static final long DEFAULT_ROW_GROUP_BYTES = TensorBatch.DEFAULT_BATCH_BYTES;
    public static final long MIN_ROW_GROUP_BYTES = 1L << 20;
    public static final long MAX_ROW_GROUP_BYTES = 1L << 30;

    public FileOptions {
        requireNonNull(format, "format is null");
        requireNonNull(compression, "compression is null");
        requireNonNull(rowLayout, "rowLayout is null");
        requireNonNull(chunking, "chunking is null");
        if (!(format instanceof DatasetFileFormat) && !(format instanceof ArrayFileFormat)) {
            throw new IllegalArgumentException("format " + format.name() + " writes neither part files nor an array");
        }
        chunking.requireFits(format.name(), format instanceof ArrayFileFormat);
        requireRowGroupBytes(rowGroupBytes);
    }

    /** Refuses a row-group size outside 1 MiB to 1 GiB. */
    public static void requireRowGroupBytes(long rowGroupBytes) {
        if (rowGroupBytes < MIN_ROW_GROUP_BYTES || rowGroupBytes > MAX_ROW_GROUP_BYTES) {
            throw new InvalidRequestException("Cannot use row group size " + rowGroupBytes + " bytes: expected 1m to"
                    + " 1g (each task holds one group's buffers; the default is 32m)");
        }
    }

    /** Arrow IPC, uncompressed, 32 MiB row groups, PLAIN. */
    public static FileOptions defaults() {
        return new FileOptions(new ArrowIpcFormat(), Compression.NONE, DEFAULT_ROW_GROUP_BYTES, false,
                RowLayout.FLAT, ArrayChunking.DEFAULT);
    }

    public FileOptions withFormat(DatasetFileFormat format) {
        return withFormat(format, ArrayChunking.DEFAULT);
    }

    /** A dataset format (with the default chunking) or an array format with its chunks and shards. */
    public FileOptions withFormat(TensorFileFormat format, ArrayChunking chunking) {
        return new FileOptions(format, compression, rowGroupBytes, byteStreamSplit, rowLayout, chunking);
    }

    /** The format's reader and writer, for a dataset of part files. */
    public DatasetFileFormat datasetFormat() {
        if (format instanceof DatasetFileFormat dataset) {
            return dataset;
        }
        throw new IllegalStateException(format.name() + " writes an array, not part files");
    }

    /** The array format, when this one writes one N-d array rather than part files. */
    public Optional<ArrayFileFormat> array() {
        return format instanceof ArrayFileFormat array ? Optional.of(array) : Optional.empty();
    }

    /**
     * {@code plan} with partitions of whole chunks (or shards) when the format writes an array, checking that
     * {@code dtype} and the codec fit it; {@code plan} itself otherwise.
     */
    public PartitionPlan partitions(PartitionPlan plan, DType dtype) {
        return array().map(array -> chunking.align(chunking.layout(array, plan, dtype, compression), plan)).orElse(plan);
    }

    /** The array's layout for partitions {@link #partitions} gave. */
    public ArrayLayout layout(PartitionPlan plan, DType dtype) {
        return chunking.layout(array().orElseThrow(), plan, dtype, compression);
    }

    public FileOptions withRowGroupBytes(long bytes) {
        return new FileOptions(format, compression, bytes, byteStreamSplit, rowLayout, chunking);
    }

    public FileOptions withByteStreamSplit(boolean split) {
        return new FileOptions(format, compression, rowGroupBytes, split, rowLayout, chunking);
    }

    public FileOptions withRowLayout(RowLayout layout) {
        return new FileOptions(format, compression, rowGroupBytes, byteStreamSplit, layout, chunking);
    }

    /**
     * Refuses nested rows in a format ({@code formatName}) whose rows cannot be nested, as its entry in
     * {@link TensorFileFormats} says: Arrow IPC keeps the row shape in its tensor type already, and a {@code .npy}
     * file is one array.
     */
    public static void requireRowLayoutFits(RowLayout layout, String formatName) {
        if (layout != RowLayout.NESTED) {
            return;
        }
        TensorFileFormats.byName(formatName).flatMap(TensorFileFormat::whyRowsStayFlat).ifPresent(reason -> {
            throw new InvalidRequestException("Cannot use " + Param.ROW_LAYOUT.given("RowLayout.NESTED", "nested")
                    + " with format " + formatName + ": " + reason + "; nested rows are for Parquet readers (Spark,"
                    + " DuckDB, polars); add " + parquetFormat());
        });
    }

    /** Refuses BYTE_STREAM_SPLIT where it cannot apply: it is a Parquet encoding of float values. */
    public void requireEncodingFits(DType dtype) {
        if (!byteStreamSplit) {
            return;
        }
        requireByteStreamSplitFits(format.name());
        if (dtype != DType.FLOAT32 && dtype != DType.FLOAT64 && dtype != DType.COMPLEX64
                && dtype != DType.COMPLEX128) {
            throw new InvalidRequestException("Cannot use " + Param.ENCODING.given("true", "byte-stream-split")
                    + " for " + dtype.typeName() + " values: it encodes float32 and float64 (and complex) values;"
                    + " leave " + Param.ENCODING.named() + " out");
        }
    }

    /** Refuses BYTE_STREAM_SPLIT in a format ({@code formatName}) that cannot store it: all but Parquet. */
    public static void requireByteStreamSplitFits(String formatName) {
        if (!TensorFileFormats.byName(formatName).map(TensorFileFormat::splitsFloatStreams).orElse(false)) {
            throw new InvalidRequestException("Cannot use " + Param.ENCODING.given("true", "byte-stream-split")
                    + " with format " + formatName + ": it is a Parquet encoding; add " + parquetFormat());
        }
    }

    private static String parquetFormat() {
        return Param.FORMAT.given("OutputFormat.PARQUET", "parquet");
    }

    /** What a writer of a dataset file takes: the batch size, the codec and its level, the encoding, the layout. */
    public WriteSettings settings() {
        return new WriteSettings(rowGroupBytes, compression, byteStreamSplit, rowLayout);
    }

    /** The codec as the manifest names it: {@code zstd}, or {@code zstd:9} with a level. */
    public String codecName() {
        return compression.toString();
    }

    public FileOptions withCompression(Compression compression) {
        return new FileOptions(format, compression, rowGroupBytes, byteStreamSplit, rowLayout, chunking);
    }
}
