package dev.tensorbroadcast.job.spark;

import dev.tensorbroadcast.planner.InvalidRequestException;
import java.util.Locale;

/** The file format of a dataset: one file per partition, named {@code part-NNNNN} plus the extension. */
public enum OutputFormat {
    ARROW("arrow", ".arrow"),
    PARQUET("parquet", ".parquet");

    private final String formatName;
    private final String extension;

    OutputFormat(String formatName, String extension) {
        this.formatName = formatName;
        this.extension = extension;
    }

    public String formatName() {
        return formatName;
    }

    /** The file name extension, with its dot. */
    public String extension() {
        return extension;
    }

    public static OutputFormat parse(String text) {
        String key = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        for (OutputFormat format : values()) {
            if (format.formatName.equals(key)) {
                return format;
            }
        }
        throw new InvalidRequestException("Cannot use format '" + text + "': expected arrow or parquet");
    }

    @Override
    public String toString() {
        return formatName;
    }
}
