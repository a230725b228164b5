package dev.tensorbroadcast.job;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.format.ArrayChunking;
import dev.tensorbroadcast.arrowio.format.ArrayFileFormat;
import dev.tensorbroadcast.arrowio.format.DatasetFileFormat;
import dev.tensorbroadcast.arrowio.format.TensorFileFormat;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowIpcFormat;
import dev.tensorbroadcast.arrowio.format.parquet.ParquetFormat;
import dev.tensorbroadcast.arrowio.source.TensorFileFormats;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.UserText;
import java.io.Serializable;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The file format of a dataset, by the name {@code --format} takes: one file per partition, named {@code part-NNNNN}
 * plus the extension. The API's name for arrow-io's {@link DatasetFileFormat}, which does the work (the pipeline
 * takes that one); every dataset format in {@link TensorFileFormats} is one. Or one N-d array of chunk objects, an
 * {@link ArrayFileFormat} (Zarr), with its {@link ArrayChunking} (the pipeline takes both, through its file options).
 */
public final class OutputFormat implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Arrow IPC files of {@code arrow.fixed_shape_tensor} rows: {@code --format arrow}, the default. */
    public static final OutputFormat ARROW = new OutputFormat(new ArrowIpcFormat());
    /** Parquet files with the Arrow schema in their footer: {@code --format parquet}. */
    public static final OutputFormat PARQUET = new OutputFormat(new ParquetFormat());

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

    /** The name {@code --format} takes and the manifest records: {@code arrow}, {@code parquet}, {@code zarr}. */
    public String formatName() {
        return format.name();
    }

    /** The file name extension, with its dot. */
    public String extension() {
        return format.extension();
    }

    /** Every dataset format the registry knows, the built-in ones first. */
    public static List<OutputFormat> values() {
        return Stream.concat(TensorFileFormats.datasetFormats().stream(), TensorFileFormats.arrayFormats().stream())
                .map(OutputFormat::of).toList();
    }

    /** The format of that name, as {@code --format} takes it; refused in one line naming the accepted ones. */
    public static OutputFormat parse(String text) {
        Optional<TensorFileFormat> found = TensorFileFormats.byName(text)
                .filter(format -> format instanceof DatasetFileFormat || format instanceof ArrayFileFormat);
        return found.map(OutputFormat::of).orElseThrow(() ->
                new InvalidRequestException("Cannot use format '" + UserText.shown(text) + "': expected "
                        + accepted()));
    }

    private static OutputFormat of(TensorFileFormat format) {
        return format.equals(ARROW.format) ? ARROW : format.equals(PARQUET.format) ? PARQUET : new OutputFormat(format);
    }

    /** "arrow or parquet", "a, b or c". */
    private static String accepted() {
        List<String> names = values().stream().map(OutputFormat::formatName).toList();
        return names.size() == 1 ? names.get(0) : String.join(", ", names.subList(0, names.size() - 1)) + " or "
                + names.get(names.size() - 1);
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
