package dev.tensorbroadcast.job.sink;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.format.ArrayChunking;
import dev.tensorbroadcast.arrowio.format.ArrayFileFormat;
import dev.tensorbroadcast.arrowio.format.ArrayLayout;
import dev.tensorbroadcast.arrowio.format.DatasetFileFormat;
import dev.tensorbroadcast.arrowio.format.TensorFileFormat;
import dev.tensorbroadcast.arrowio.format.WriteSettings;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowIpcFormat;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Param;
import dev.tensorbroadcast.planner.PartitionPlan;
import java.io.Serializable;
import java.util.Optional;

/**
 * What the pipeline writes, one value per job: the format of the files (part files, or one chunked array with its
 * chunks and shards) and how they are written ({@link WriteSettings}, handed to the format's writer as it is). The
 * request ({@code WriteSpec}) checked the settings against the format when it was made; what needs the data (the
 * encoding against the dtype, an array's chunks against the output) is checked here when the job is prepared.
 *
 * @param format a {@link DatasetFileFormat} (part files) or an {@link ArrayFileFormat} (one chunked array)
 * @param chunking an array's chunks and shards ({@code --chunks}, {@code --shard}); the default for part files
 * @param settings the codec and its level, the row-group size, the encoding, the row layout
 */
public record FileOptions(TensorFileFormat format, ArrayChunking chunking, WriteSettings settings)
        implements Serializable {
    public FileOptions {
        requireNonNull(format, "format is null");
        requireNonNull(chunking, "chunking is null");
        requireNonNull(settings, "settings is null");
        if (!(format instanceof DatasetFileFormat) && !(format instanceof ArrayFileFormat)) {
            throw new IllegalArgumentException("format " + format.name() + " writes neither part files nor an array");
        }
        chunking.requireFits(format.name(), format instanceof ArrayFileFormat);
    }

    /** Arrow IPC, uncompressed, 32 MiB row groups, PLAIN. */
    public static FileOptions defaults() {
        return new FileOptions(new ArrowIpcFormat(), ArrayChunking.DEFAULT, WriteSettings.defaults());
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
        return array().map(array -> chunking.align(layout(array, plan, dtype), plan))
                .orElse(plan);
    }

    /** The array's layout for partitions {@link #partitions} gave. */
    public ArrayLayout layout(PartitionPlan plan, DType dtype) {
        return layout(array().orElseThrow(), plan, dtype);
    }

    private ArrayLayout layout(ArrayFileFormat array, PartitionPlan plan, DType dtype) {
        return chunking.layout(array, plan, dtype, settings.compression());
    }

    /**
     * Refuses BYTE_STREAM_SPLIT for values it cannot encode: float32 and float64 (and complex) only. Whether the
     * format has the encoding was checked with the request.
     */
    public void requireEncodingFits(DType dtype) {
        if (!settings.byteStreamSplit()) {
            return;
        }
        if (dtype != DType.FLOAT32 && dtype != DType.FLOAT64 && dtype != DType.COMPLEX64 && dtype != DType.COMPLEX128) {
            throw new InvalidRequestException("Cannot use " + Param.ENCODING.given("true", "byte-stream-split")
                    + " for " + dtype.typeName() + " values: it encodes float32 and float64 (and complex) values;"
                    + " leave " + Param.ENCODING.named() + " out");
        }
    }

    /** The codec as the manifest names it: {@code zstd}, or {@code zstd:9} with a level. */
    public String codecName() {
        return settings.compression().toString();
    }
}
