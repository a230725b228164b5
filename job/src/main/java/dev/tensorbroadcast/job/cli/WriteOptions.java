package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.arrowio.parquet.RowLayout;
import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.spark.DiscardJob;
import dev.tensorbroadcast.planner.InvalidRequestException;
import java.util.LinkedHashMap;
import java.util.Map;
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
            description = "none (default), lz4 or zstd; zstd:1 (fastest) to zstd:22 (smallest) sets zstd's level"
                    + " (plain zstd is level 3).")
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

    /** {@link TensorBroadcast#DEFAULT_MAX_OUTPUT_BYTES} as typed. */
    static final String DEFAULT_MAX_OUTPUT = "1t";

    @Option(names = "--max-output", paramLabel = "<size>", defaultValue = DEFAULT_MAX_OUTPUT,
            description = "Refuse to write more tensor bytes than this, such as 512g or 2t (default: ${DEFAULT-VALUE});"
                    + " none for no limit.")
    String maxOutput = DEFAULT_MAX_OUTPUT;

    @Option(names = "--encoding", paramLabel = "<encoding>", defaultValue = "plain",
            description = "How Parquet stores float values: plain (default) or byte-stream-split, which groups bytes"
                    + " of like significance so that a codec compresses float data better.")
    String encoding = "plain";

    @Option(names = "--row-layout", paramLabel = "<layout>", defaultValue = "flat",
            description = "How Parquet stores a row: flat (default; one list, the row shape in the Arrow schema, so"
                    + " pyarrow reads a tensor column) or nested (one list per dimension: Spark reads a [4,3] row as"
                    + " array<array<float>>, DuckDB as FLOAT[][], polars as an Array of shape (4, 3)).")
    String rowLayout = "flat";

    @Option(names = "--row-group-size", paramLabel = "<size>",
            description = "Bytes of values per Parquet row group (and per Arrow record batch), such as 128m (default"
                    + " 32m, at least one row each): larger groups compress and scan better, and each task holds one"
                    + " group's buffers.")
    String rowGroupSize;

    @Option(names = "--ignore-free-space",
            description = "Write even if a local output's file system has less free space than the uncompressed"
                    + " files need.")
    boolean ignoreFreeSpace;

    /** The {@code --max-output} limit in bytes; {@code none} is no limit. */
    long maxOutputBytes() {
        return maxOutput.strip().equalsIgnoreCase("none") ? TensorBroadcast.NO_OUTPUT_LIMIT
                : ByteSize.parse("output limit", maxOutput);
    }

    /** The {@code --row-group-size} in bytes, if given. */
    java.util.OptionalLong rowGroupBytes() {
        return rowGroupSize == null ? java.util.OptionalLong.empty()
                : java.util.OptionalLong.of(ByteSize.parse("row group size", rowGroupSize));
    }

    /** Whether {@code --encoding} asks for BYTE_STREAM_SPLIT. */
    boolean byteStreamSplit() {
        return switch (encoding.strip()) {
            case "plain" -> false;
            case "byte-stream-split" -> true;
            default -> throw new InvalidRequestException("Cannot use encoding '"
                    + encoding + "': expected plain or byte-stream-split");
        };
    }

    /** The {@code --row-layout}. */
    RowLayout rowLayout() {
        return RowLayout.named(rowLayout.strip()).orElseThrow(() -> new InvalidRequestException(
                "Cannot use row layout '" + rowLayout + "': expected flat or nested"));
    }

    boolean discards() {
        return DiscardJob.FORMAT_NAME.equals(format);
    }
}
