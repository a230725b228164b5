package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.arrowio.format.ArrayChunking;
import dev.tensorbroadcast.job.pipeline.DiscardJob;
import dev.tensorbroadcast.planner.Param;
import picocli.CommandLine.Option;

/** Where {@code expand} and {@code broadcast-tensors} write: a dataset directory, or nowhere ({@code --format null}). */
final class DatasetOutputOptions {
    static final String OUTPUT = "--output";
    static final String FORMAT = "--format";
    static final String CHUNKS = "--chunks";
    static final String SHARD = "--shard";
    static final String DIMENSION_NAMES = "--dimension-names";

    /** Required unless the format is {@code null}, which writes nothing (checked by {@link SparkRun#of}). */
    @Option(
            names = OUTPUT,
            paramLabel = "<dir>",
            description = "The dataset directory: a local path or a Hadoop URI (hdfs://, s3a://, file:/). "
                    + "Required, except with --format null.")
    String output;

    @Option(
            names = FORMAT,
            paramLabel = "<format>",
            defaultValue = "arrow",
            completionCandidates = FormatHelp.Datasets.class,
            description = "${COMPLETION-CANDIDATES}, or null: compute every batch and discard it (no files, no"
                    + " --output; measures the broadcast apart from the disk).")
    String format;

    @Option(
            names = CHUNKS,
            paramLabel = "<sizes>",
            description = "With --format zarr: the chunk shape, one size per output dim (64,4096). Default: a "
                    + "partition's rows by the whole of the other dims.")
    String chunks;

    @Option(
            names = SHARD,
            paramLabel = "<sizes>",
            description = "With --format zarr: the shard shape (sharding_indexed), each dim a multiple of --chunks.")
    String shard;

    @Option(
            names = DIMENSION_NAMES,
            paramLabel = "<names>",
            description = "With --format zarr: the names of the output's dims, one per dim (time,lat,lon), kept in"
                    + " zarr.json as dimension_names (xarray's dims).")
    String dimensionNames;

    /** The chunks, shard and dimension names given, refused unless the format writes an array. */
    ArrayChunking chunking() {
        return new ArrayChunking(
                chunks == null ? new long[0] : ArrayChunking.parse(chunks, Param.CHUNKS),
                shard == null ? new long[0] : ArrayChunking.parse(shard, Param.SHARD),
                dimensionNames == null ? java.util.List.of() : ArrayChunking.parseNames(dimensionNames));
    }

    boolean discards() {
        return DiscardJob.FORMAT_NAME.equals(format);
    }
}
