package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.job.spark.DiscardJob;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Where and how a Spark subcommand writes: shared by {@code expand} and {@code broadcast-tensors}. */
final class WriteOptions {
    /** Required unless the format is {@code null}, which writes nothing (checked by {@link SparkCommands}). */
    @Option(names = "--output", paramLabel = "<dir>",
            description = "The dataset directory: a local path or a Hadoop URI (hdfs://, s3a://, file:/). "
                    + "Required, except with --format null.")
    String output;

    @Option(names = "--format", paramLabel = "<format>", defaultValue = "arrow",
            description = "arrow (Arrow IPC files, default), parquet, or null: compute every batch and discard it "
                    + "(no files, no --output; measures the broadcast apart from the disk).")
    String format;

    @Option(names = "--compression", paramLabel = "<codec>", defaultValue = "none",
            description = "none (default), lz4 or zstd.")
    String compression;

    @Mixin
    PartitionOptions partitioning;

    @Option(names = "--master", paramLabel = "<url>",
            description = "Spark master: local[N], spark://host:7077, yarn, k8s://...; default: embedded local[*].")
    String master;

    @Option(names = "--overwrite",
            description = "Replace the output if it is an empty directory or a tensor-broadcast dataset.")
    boolean overwrite;

    boolean discards() {
        return DiscardJob.FORMAT_NAME.equals(format);
    }

    @Option(names = "--column", paramLabel = "<name>",
            description = "The column of an Arrow IPC input that holds the tensor.")
    String column;
}
