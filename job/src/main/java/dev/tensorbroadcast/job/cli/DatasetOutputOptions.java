package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.job.spark.DiscardJob;
import picocli.CommandLine.Option;

/** Where {@code expand} and {@code broadcast-tensors} write: a dataset directory, or nowhere ({@code --format null}). */
final class DatasetOutputOptions {
    static final String OUTPUT = "--output";
    static final String FORMAT = "--format";

    /** Required unless the format is {@code null}, which writes nothing (checked by {@link SparkCommands}). */
    @Option(names = OUTPUT, paramLabel = "<dir>",
            description = "The dataset directory: a local path or a Hadoop URI (hdfs://, s3a://, file:/). "
                    + "Required, except with --format null.")
    String output;

    @Option(names = FORMAT, paramLabel = "<format>", defaultValue = "arrow",
            description = "arrow (Arrow IPC files, default), parquet, or null: compute every batch and discard it "
                    + "(no files, no --output; measures the broadcast apart from the disk).")
    String format;

    boolean discards() {
        return DiscardJob.FORMAT_NAME.equals(format);
    }
}
