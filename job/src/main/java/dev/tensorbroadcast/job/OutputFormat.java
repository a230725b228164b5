package dev.tensorbroadcast.job;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.format.ArrayChunking;
import dev.tensorbroadcast.arrowio.format.ArrayFileFormat;
import dev.tensorbroadcast.arrowio.format.DatasetFileFormat;
import dev.tensorbroadcast.arrowio.format.TensorFileFormat;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowIpcFormat;
import dev.tensorbroadcast.arrowio.format.npy.NpyFormat;
import dev.tensorbroadcast.arrowio.format.parquet.ParquetFormat;
import dev.tensorbroadcast.arrowio.source.TensorFileFormats;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.UserText;
import java.io.Serializable;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The format of a result, by the name {@code --format} takes, as the registry ({@link TensorFileFormats}) knows it:
 * a dataset of one file per partition, named {@code part-NNNNN} plus the extension (a {@link DatasetFileFormat});
 * one N-d array of chunk objects (an {@link ArrayFileFormat}: Zarr), with its {@link ArrayChunking}; or, for a
 * reduce, one file written whole by the driver ({@link #NPY}). The API's name for the arrow-io format, which does the
 * work and says which write settings it takes ({@code TensorFileFormat.refusal(WriteSettings)}).
 */
public final class OutputFormat implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Arrow IPC files of {@code arrow.fixed_shape_tensor} rows: {@code --format arrow}, the default. */
    public static final OutputFormat ARROW = new OutputFormat(new ArrowIpcFormat());
    /** Parquet files with the Arrow schema in their footer: {@code --format parquet}. */
    public static final OutputFormat PARQUET = new OutputFormat(new ParquetFormat());
    /** One {@code .npy} file on the driver's disk, a reduce's result only: {@code --format npy}. */
    public static final OutputFormat NPY = new OutputFormat(new NpyFormat());

    private final TensorFileFormat format;
    private final ArrayChunking chunking;

    private OutputFormat(TensorFileFormat format) {
        this(format, ArrayChunking.DEFAULT);
    }

    private OutputFormat(TensorFileFormat format, ArrayChunking chunking) {
        this.format = requireNonNull(format, "format is null");
        this.chunking = requireNonNull(chunking, "chunking is null");
        chunking.requireFits(format.name(), format instanceof ArrayFileFormat);
    }

    /** The format's reader and writer, for a dataset of part files. */
    public DatasetFileFormat format() {
        if (format instanceof DatasetFileFormat dataset) {
            return dataset;
        }
        throw new IllegalStateException(format.name() + " writes an array, not part files");
    }

    /** The array format, when this one writes one N-d array rather than part files. */
    public Optional<ArrayFileFormat> array() {
        return format instanceof ArrayFileFormat array ? Optional.of(array) : Optional.empty();
    }

    /** This format with {@code chosen} chunks and shards, refused unless it writes an array. */
    public OutputFormat withChunking(ArrayChunking chosen) {
        return new OutputFormat(format, chosen);
    }

    /** The chunks and shards an array format writes ({@code --chunks}, {@code --shard}); the default otherwise. */
    public ArrayChunking chunking() {
        return chunking;
    }

    /** The arrow-io format, dataset or array, for the pipeline's file options. */
    TensorFileFormat fileFormat() {
        return format;
    }

    /** Whether the result is one file the driver writes whole, rather than a dataset's files or an array. */
    public boolean oneFile() {
        return !(format instanceof DatasetFileFormat) && !(format instanceof ArrayFileFormat);
    }

    /** The name {@code --format} takes and the manifest records: {@code arrow}, {@code parquet}, {@code zarr}. */
    public String formatName() {
        return format.name();
    }

    /** The file name extension, with its dot. */
    public String extension() {
        return format.extension();
    }

    /** Every format of a dataset or an array the registry knows, the built-in ones first. */
    public static List<OutputFormat> values() {
        return Stream.concat(TensorFileFormats.datasetFormats().stream(), TensorFileFormats.arrayFormats().stream())
                .map(OutputFormat::of)
                .toList();
    }

    /** Every format a reduce's result can be in: those the driver writes whole first ({@code npy}), then the others. */
    public static List<OutputFormat> results() {
        return Stream.concat(
                        TensorFileFormats.all().stream().map(OutputFormat::of).filter(OutputFormat::oneFile),
                        values().stream())
                .toList();
    }

    /**
     * The format of a dataset or an array of that name, as {@code --format} takes it; refused in one line naming the
     * accepted ones.
     */
    public static OutputFormat parse(String text) {
        return parse(text, values());
    }

    /** The format of that name among {@link #results}: what a reduce's {@code --format} takes. */
    public static OutputFormat parseResult(String text) {
        return parse(text, results());
    }

    private static OutputFormat parse(String text, List<OutputFormat> accepted) {
        Optional<TensorFileFormat> named = TensorFileFormats.byName(text);
        return accepted.stream()
                .filter(format -> named.isPresent() && format.format.equals(named.get()))
                .findFirst()
                .orElseThrow(() -> new InvalidRequestException(
                        "Cannot use format '" + UserText.shown(text) + "': expected " + names(accepted)));
    }

    private static OutputFormat of(TensorFileFormat format) {
        return format.equals(ARROW.format)
                ? ARROW
                : format.equals(PARQUET.format) ? PARQUET : format.equals(NPY.format) ? NPY : new OutputFormat(format);
    }

    /** "arrow or parquet", "a, b or c". */
    private static String names(List<OutputFormat> formats) {
        List<String> names = formats.stream().map(OutputFormat::formatName).toList();
        return names.size() == 1
                ? names.get(0)
                : String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof OutputFormat that && format.equals(that.format) && chunking.equals(that.chunking);
    }

    @Override
    public int hashCode() {
        return format.hashCode() * 31 + chunking.hashCode();
    }

    @Override
    public String toString() {
        return formatName();
    }
}
