package dev.tensorbroadcast.job.sink;

import dev.tensorbroadcast.planner.EnumNames;

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
        return EnumNames.parse(values(), OutputFormat::formatName, text, "Cannot use format");
    }


    @Override
    public String toString() {
        return formatName;
    }
}
