package dev.tensorbroadcast.arrowio.format.zarr;

import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.ArrayFileFormat;
import dev.tensorbroadcast.arrowio.format.ArrayLayout;
import dev.tensorbroadcast.arrowio.format.ArrayReader;
import dev.tensorbroadcast.arrowio.format.Compression;
import dev.tensorbroadcast.arrowio.format.ObjectSink;
import dev.tensorbroadcast.arrowio.format.OutputCompression;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Param;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.LongConsumer;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A Zarr v3 array: {@code zarr.json} and one object per chunk ({@code c/0/1}), or per shard with
 * {@code sharding_indexed}; chunks are little-endian {@code bytes}, then optionally zstd or gzip.
 */
public record ZarrFormat() implements ArrayFileFormat {
    private static final long serialVersionUID = 1L;

    public static final String METADATA = "zarr.json";
    public static final int DEFAULT_ZSTD_LEVEL = 3;
    public static final int DEFAULT_GZIP_LEVEL = 6;
    /** A chunk is filled and encoded on the heap whole: one Java array. */
    public static final long MAX_CHUNK_BYTES = 1L << 30;

    @Override
    public long maxChunkBytes() {
        return MAX_CHUNK_BYTES;
    }

    @Override
    public String name() {
        return "zarr";
    }

    @Override
    public String extension() {
        return ".zarr";
    }

    @Override
    public Optional<String> helpNote() {
        return Optional.of("one Zarr v3 array");
    }

    @Override
    public String description() {
        return "Zarr v3";
    }

    @Override
    public byte[] magic() {
        // a directory, not a file: recognised by its zarr.json, never by a file's first bytes
        return "{".getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public boolean recognises(byte[] head) {
        return false;
    }

    @Override
    public Optional<String> whyRowsStayFlat() {
        return Optional.of("it writes one N-d array, chunked");
    }

    @Override
    public Optional<String> whyNoRowGroups() {
        return Optional.of("an array is cut into chunks, not row groups; give " + Param.CHUNKS.named() + " instead");
    }

    @Override
    public String metadataName() {
        return METADATA;
    }

    @Override
    public Optional<String> whyNotStored(DType dtype) {
        return switch (dtype) {
            case BFLOAT16 ->
                Optional.of("Zarr v3 has no bfloat16 among its core data types; cast to float32 or"
                        + " float16 first, or write arrow or parquet");
            case STRING -> Optional.of("Zarr v3 has no string among its core data types; write arrow or parquet");
            default -> Optional.empty();
        };
    }

    @Override
    public Optional<String> refusal(Compression compression) {
        return compression.codec() != OutputCompression.LZ4
                ? Optional.empty()
                : Optional.of(compression.refusedBy(
                        name(), compression.toString(), "Zarr chunks take zstd, gzip or" + " none here"));
    }

    @Override
    public byte[] metadata(ArrayLayout layout) {
        return ZarrJson.write(layout);
    }

    @Override
    public void write(
            TensorKernel kernel, ArrayLayout layout, long first, long end, ObjectSink sink, LongConsumer progress)
            throws IOException {
        new ZarrWriter(kernel, layout, sink, progress).write(first, end);
    }

    @Override
    public ArrayReader open(FileSystem fileSystem, Path root) throws IOException {
        return new ZarrReader(fileSystem, root);
    }

    /** Our dtype of a Zarr v3 {@code data_type}: the same names, bfloat16 and string not among them. */
    static Optional<DType> dtype(String name) {
        for (DType dtype : DType.values()) {
            if (dtype.typeName().equals(name) && dtype != DType.BFLOAT16 && dtype != DType.STRING) {
                return Optional.of(dtype);
            }
        }
        return Optional.empty();
    }
}
