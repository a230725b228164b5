package dev.tensorbroadcast.job;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.format.DatasetFileFormat;
import dev.tensorbroadcast.arrowio.format.TensorFileFormats;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowIpcFormat;
import dev.tensorbroadcast.arrowio.format.parquet.ParquetFormat;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.UserText;
import java.io.Serializable;
import java.util.List;

/**
 * The file format of a dataset, by the name {@code --format} takes: one file per partition, named {@code part-NNNNN}
 * plus the extension. The API's name for arrow-io's {@link DatasetFileFormat}, which does the work (the pipeline
 * takes that one); every dataset format in {@link TensorFileFormats} is one.
 */
public final class OutputFormat implements Serializable {
    private static final long serialVersionUID = 1L;

    public static final OutputFormat ARROW = new OutputFormat(new ArrowIpcFormat());
    public static final OutputFormat PARQUET = new OutputFormat(new ParquetFormat());

    private final DatasetFileFormat format;

    private OutputFormat(DatasetFileFormat format) {
        this.format = requireNonNull(format, "format is null");
    }

    /** The format's reader and writer. */
    public DatasetFileFormat format() {
        return format;
    }

    public String formatName() {
        return format.name();
    }

    /** The file name extension, with its dot. */
    public String extension() {
        return format.extension();
    }

    /** Every dataset format the registry knows, the built-in ones first. */
    public static List<OutputFormat> values() {
        return TensorFileFormats.datasetFormats().stream().map(OutputFormat::of).toList();
    }

    public static OutputFormat parse(String text) {
        return TensorFileFormats.datasetFormat(text).map(OutputFormat::of).orElseThrow(() ->
                new InvalidRequestException("Cannot use format '" + UserText.shown(text) + "': expected "
                        + accepted()));
    }

    private static OutputFormat of(DatasetFileFormat format) {
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
        return other instanceof OutputFormat that && format.equals(that.format);
    }

    @Override
    public int hashCode() {
        return format.hashCode();
    }

    @Override
    public String toString() {
        return formatName();
    }
}
