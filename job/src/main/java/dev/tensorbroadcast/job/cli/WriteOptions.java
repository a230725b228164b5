package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.arrowio.format.Compression;
import dev.tensorbroadcast.arrowio.format.RowLayout;
import dev.tensorbroadcast.job.ByteSize;
import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.WriteSpec;
import dev.tensorbroadcast.planner.InvalidRequestException;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * How a Spark subcommand writes, shared by {@code expand}, {@code broadcast-tensors} and {@code reduce}; where it
 * writes ({@code --output}, {@code --format}) is each command's own: a dataset directory, or for reduce a .npy too.
 */
final class WriteOptions {
    static final String COMPRESSION = "--compression";
    static final String OVERWRITE = "--overwrite";
    static final String MAX_OUTPUT = "--max-output";
    static final String ENCODING = "--encoding";
    static final String ROW_LAYOUT = "--row-layout";
    static final String ROW_GROUP_SIZE = "--row-group-size";
    static final String IGNORE_FREE_SPACE = "--ignore-free-space";

    @Option(
            names = COMPRESSION,
            paramLabel = "<codec>",
            defaultValue = "none",
            description = "none (default), lz4 or zstd; zstd:1 (fastest) to zstd:22 (smallest) sets zstd's level"
                    + " (plain zstd is level 3); gzip or gzip:1 to gzip:9 (plain gzip is 6) for --format zarr only.")
    String compression;

    @Mixin
    PartitionOptions partitioning;

    @Option(
            names = "--master",
            paramLabel = "<url>",
            description = "Spark master: local[N], spark://host:7077, local-cluster (the one 'cluster start' runs),"
                    + " yarn, k8s://...; default: no Spark at all, the tasks on this process's threads, one per core,"
                    + " as an embedded local[*] would run them (given, even local[*], it always runs on Spark).")
    String master;

    @Option(
            names = "--conf",
            paramLabel = "<key>=<value>",
            description = "A Spark setting for the session this command starts, as spark-submit --conf takes it;"
                    + " repeatable, e.g. --conf spark.speculation=true.")
    Map<String, String> conf = new LinkedHashMap<>();

    @Option(
            names = OVERWRITE,
            description = "Replace the output if it is an empty directory or a tensor-broadcast dataset.")
    boolean overwrite;

    /** {@link TensorBroadcast#DEFAULT_MAX_OUTPUT_BYTES} as typed. */
    static final String DEFAULT_MAX_OUTPUT = "1t";

    @Option(
            names = MAX_OUTPUT,
            paramLabel = "<size>",
            defaultValue = DEFAULT_MAX_OUTPUT,
            description = "Refuse to write more tensor bytes than this, such as 512g or 2t (default: ${DEFAULT-VALUE});"
                    + " none for no limit.")
    String maxOutput = DEFAULT_MAX_OUTPUT;

    @Option(
            names = ENCODING,
            paramLabel = "<encoding>",
            defaultValue = "plain",
            description = "How Parquet stores float values: plain (default) or byte-stream-split, which groups bytes"
                    + " of like significance so that a codec compresses float data better.")
    String encoding = "plain";

    @Option(
            names = ROW_LAYOUT,
            paramLabel = "<layout>",
            defaultValue = "flat",
            description = "How Parquet stores a row: flat (default; one list, the row shape in the Arrow schema, so"
                    + " pyarrow reads a tensor column) or nested (one list per dimension: Spark reads a [4,3] row as"
                    + " array<array<float>>, DuckDB as FLOAT[][], polars as an Array of shape (4, 3)).")
    String rowLayout = "flat";

    @Option(
            names = ROW_GROUP_SIZE,
            paramLabel = "<size>",
            description = "Bytes of values per Parquet row group (and per Arrow record batch), such as 128m (default"
                    + " 32m, at least one row each): larger groups compress and scan better, and each task holds one"
                    + " group's buffers.")
    String rowGroupSize;

    @Option(
            names = IGNORE_FREE_SPACE,
            description = "Write even if a local output's file system has less free space than the uncompressed"
                    + " files need.")
    boolean ignoreFreeSpace;

    /** The {@code --max-output} limit in bytes; {@code none} is no limit. */
    long maxOutputBytes() {
        return maxOutput.strip().equalsIgnoreCase("none")
                ? TensorBroadcast.NO_OUTPUT_LIMIT
                : ByteSize.parse("output limit", maxOutput);
    }

    /** The {@code --row-group-size} in bytes, if given. */
    java.util.OptionalLong rowGroupBytes() {
        return rowGroupSize == null
                ? java.util.OptionalLong.empty()
                : java.util.OptionalLong.of(ByteSize.parse("row group size", rowGroupSize));
    }

    /** Whether {@code --encoding} asks for BYTE_STREAM_SPLIT. */
    boolean byteStreamSplit() {
        return switch (encoding.strip()) {
            case "plain" -> false;
            case "byte-stream-split" -> true;
            default ->
                throw new InvalidRequestException(
                        "Cannot use encoding '" + encoding + "': expected plain or byte-stream-split");
        };
    }

    /** The {@code --row-layout}. */
    RowLayout rowLayout() {
        return RowLayout.named(rowLayout.strip())
                .orElseThrow(() -> new InvalidRequestException(
                        "Cannot use row layout '" + rowLayout + "': expected flat or nested"));
    }

    /**
     * The write request these options give, parsed in the order they are listed; the format is the command's own,
     * and the request's rules between options are checked when it is built.
     */
    WriteSpec.Builder spec() {
        WriteSpec.Builder spec = WriteSpec.builder()
                .compression(Compression.parse(compression))
                .overwrite(overwrite)
                .maxOutputBytes(maxOutputBytes())
                .checkFreeSpace(!ignoreFreeSpace);
        rowGroupBytes().ifPresent(spec::rowGroupBytes);
        return spec.byteStreamSplit(byteStreamSplit()).rowLayout(rowLayout());
    }
}
