package dev.tensorbroadcast.job.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Where and how a Spark subcommand writes: shared by {@code expand} and {@code broadcast-tensors}. */
final class WriteOptions {
    @Option(names = "--output", required = true, paramLabel = "<dir>",
            description = "The dataset directory: a local path or a Hadoop URI (hdfs://, s3a://, file:/).")
    String output;

    @Option(names = "--format", paramLabel = "<format>", defaultValue = "arrow",
            description = "arrow (Arrow IPC files, default) or parquet.")
    String format;

    @Option(names = "--compression", paramLabel = "<codec>", defaultValue = "none",
            description = "none (default), lz4 or zstd.")
    String compression;

    @Mixin
    PartitionOptions partitioning;

    @Option(names = "--master", paramLabel = "<url>",
            description = "Spark master: local[N], spark://host:7077, local-cluster (the one 'cluster start' runs),"
                    + " yarn, k8s://...; default: embedded local[*].")
    String master;

    @Option(names = "--conf", paramLabel = "<key>=<value>",
            description = "A Spark setting for the session this command starts, as spark-submit --conf takes it;"
                    + " repeatable, e.g. --conf spark.speculation=true.")
    Map<String, String> conf = new LinkedHashMap<>();

    @Option(names = "--overwrite",
            description = "Replace the output if it is an empty directory or a tensor-broadcast dataset.")
    boolean overwrite;

    @Option(names = "--column", paramLabel = "<name>",
            description = "The column of an Arrow IPC input that holds the tensor.")
    String column;
}
