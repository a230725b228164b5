package dev.tensorbroadcast.arrowio.format;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Param;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.Shape;
import java.io.Serializable;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * How an array format's output is chunked: the chunk shape ({@code --chunks}; empty for the default, a partition's
 * rows by the whole of the other dims) and the shard shape ({@code --shard}; empty for none). Partitions follow the
 * chunks (or shards): a task writes whole objects, a slab of the first dim each. A value of arrow-io's so that the
 * API's name of a format and the pipeline that writes it both carry it. With them go the names of the array's dims
 * ({@code --dimension-names}; empty for none), which Zarr keeps in its metadata.
 */
@SuppressWarnings("ArrayRecordComponent") // copied in and out, and compared by content in equals and hashCode
public record ArrayChunking(long[] chunks, long[] shard, List<String> dimensionNames) implements Serializable {
    public static final ArrayChunking DEFAULT = new ArrayChunking(new long[0], new long[0]);
    /** A default chunk is a partition's rows, and at most this. */
    static final long DEFAULT_CHUNK_BYTES = 128L << 20;

    public ArrayChunking {
        chunks = chunks.clone();
        shard = shard.clone();
        dimensionNames = List.copyOf(requireNonNull(dimensionNames, "dimensionNames is null"));
        Set<String> seen = new HashSet<>();
        for (String name : dimensionNames) {
            if (name.isBlank() || !seen.add(name)) {
                String shown = String.join(",", dimensionNames);
                throw new InvalidRequestException("Cannot use "
                        + Param.DIMENSION_NAMES.given(
                                "List.of("
                                        + dimensionNames.stream()
                                                .map(n -> "\"" + n + "\"")
                                                .collect(Collectors.joining(", "))
                                        + ")",
                                shown)
                        + ": " + (name.isBlank() ? "a name is empty" : "'" + name + "' is given twice")
                        + "; expected one distinct name per output dim, such as time,lat,lon");
            }
        }
        if (shard.length > 0 && chunks.length == 0) {
            throw new InvalidRequestException("Cannot use " + Param.SHARD.given(text(shard), text(shard)) + " without "
                    + Param.CHUNKS.named() + ": a shard holds whole chunks, so give their shape too");
        }
        if (shard.length > 0) {
            boolean fits = shard.length == chunks.length;
            for (int i = 0; fits && i < shard.length; i++) {
                fits = shard[i] % chunks[i] == 0;
            }
            if (!fits) {
                throw new InvalidRequestException("Cannot use " + Param.SHARD.given(text(shard), text(shard)) + ": each"
                        + " dim must be a multiple of " + Param.CHUNKS.given(text(chunks), text(chunks))
                        + ", one per dim (a shard holds whole chunks)");
            }
        }
    }

    /** Chunks and a shard, without dimension names. */
    public ArrayChunking(long[] chunks, long[] shard) {
        this(chunks, shard, List.of());
    }

    public boolean isDefault() {
        return chunks.length == 0 && shard.length == 0 && dimensionNames.isEmpty();
    }

    /** {@code time,lat,lon} as {@code --dimension-names} takes it. */
    public static List<String> parseNames(String text) {
        return Arrays.stream(requireNonNull(text, "text is null").split(",", -1))
                .map(String::strip)
                .toList();
    }

    @Override
    public long[] chunks() {
        return chunks.clone();
    }

    @Override
    public long[] shard() {
        return shard.clone();
    }

    /** {@code 64,4096} as {@code --chunks} (or {@code --shard}, as {@code param}) takes it. */
    public static long[] parse(String text, Param param) {
        String shown = text == null ? "" : text.strip();
        String[] parts = shown.split(",", -1);
        long[] dims = new long[parts.length];
        try {
            for (int i = 0; i < parts.length; i++) {
                dims[i] = Long.parseLong(parts[i].strip());
                if (dims[i] < 1) {
                    throw new NumberFormatException();
                }
            }
        } catch (NumberFormatException e) {
            throw new InvalidRequestException(
                    "Cannot use " + param.given("new long[] {" + shown + "}", "'" + shown + "'")
                            + ": expected positive integers separated by commas, one per output dim, such as 64,4096");
        }
        return dims;
    }

    /** Refuses chunks or a shard with a format that is not an array's. */
    public void requireFits(String formatName, boolean arrayFormat) {
        if (!dimensionNames.isEmpty() && !arrayFormat) {
            throw new InvalidRequestException("Cannot use " + Param.DIMENSION_NAMES.named() + " with format "
                    + formatName + ": dimension names are a Zarr array's; add " + Param.FORMAT.given("zarr", "zarr"));
        }
        if (!isDefault() && !arrayFormat) {
            Param param = chunks.length > 0 ? Param.CHUNKS : Param.SHARD;
            throw new InvalidRequestException("Cannot use " + param.named() + " with format " + formatName
                    + ": chunks and shards are Zarr's; add " + Param.FORMAT.given("zarr", "zarr"));
        }
    }

    /**
     * The layout of the output {@code plan} cuts (before or after {@link #align}: the same either way), refusing a
     * dtype the format cannot store, a codec it does not have, and chunks of another rank or too large.
     */
    public ArrayLayout layout(ArrayFileFormat format, PartitionPlan plan, DType dtype, Compression compression) {
        format.whyNotStored(dtype).ifPresent(reason -> {
            throw new InvalidRequestException(
                    "Cannot write " + dtype.typeName() + " values as " + format.name() + ": " + reason);
        });
        Shape shape = plan.output();
        long[] chosen = chunks.length > 0 ? chunks : defaultChunks(plan, dtype);
        if (chosen.length != shape.rank()) {
            throw new InvalidRequestException("Cannot use " + Param.CHUNKS.given(text(chosen), text(chosen))
                    + " for output " + shape + ": give one size per dim (" + shape.rank() + ")");
        }
        if (!dimensionNames.isEmpty() && dimensionNames.size() != shape.rank()) {
            String shown = String.join(",", dimensionNames);
            throw new InvalidRequestException("Cannot use " + Param.DIMENSION_NAMES.given("List.of(...)", shown)
                    + " for output " + shape + ": " + dimensionNames.size() + " names for " + shape.rank()
                    + " dims; give one name per dim");
        }
        ArrayLayout layout = new ArrayLayout(shape, dtype, chosen, shard, compression, dimensionNames);
        if (layout.chunkBytes() > format.maxChunkBytes()) {
            throw new InvalidRequestException("Cannot use " + Param.CHUNKS.given(text(chosen), text(chosen))
                    + ": a chunk would be " + layout.chunkBytes() + " bytes; at most "
                    + format.maxChunkBytes() + " (a task fills one chunk on its heap)");
        }
        return layout;
    }

    /**
     * The partitions of {@code plan} moved to whole blocks (shards, else chunks) of the first dim: each at least one
     * block, as many blocks as fit the plan's largest partition.
     */
    public PartitionPlan align(ArrayLayout layout, PartitionPlan plan) {
        Shape shape = plan.output();
        if (shape.rank() == 0 || shape.dim(0) == 0 || plan.rows() == 0) {
            return plan;
        }
        long perIndex = plan.rows() / shape.dim(0);
        long block = layout.block()[0];
        long wantedIndexes = Math.max(1, plan.maxPartitionRows() / perIndex);
        long blocksPer = Math.max(1, wantedIndexes / block);
        long step = blocksPer * block;
        int count = Math.toIntExact((shape.dim(0) + step - 1) / step);
        long[] starts = new long[count];
        for (int i = 0; i < count; i++) {
            starts[i] = i * step * perIndex;
        }
        return plan.cutAt(starts);
    }

    /** A partition's first-dim extent by the whole of the other dims, shrunk to fit a chunk on the heap. */
    private static long[] defaultChunks(PartitionPlan plan, DType dtype) {
        long[] dims = plan.output().dims();
        long[] chunk = dims.clone();
        if (dims.length == 0) {
            return chunk;
        }
        long perIndex = Math.max(1, plan.rows() / Math.max(1, dims[0]));
        long target = Math.min(DEFAULT_CHUNK_BYTES, Math.max(1, plan.maxPartitionRows() * plan.rowBytes()));
        long width = ArrayLayout.storedBytes(dtype);
        chunk[0] = Math.max(1, Math.min(Math.max(1, dims[0]), plan.maxPartitionRows() / perIndex));
        for (int i = 0; i < dims.length; i++) {
            long inner = width;
            for (int j = i + 1; j < dims.length; j++) {
                inner = multiplyCapped(inner, Math.max(1, dims[j]));
            }
            if (inner <= target) {
                long fit = Math.max(1, target / inner);
                chunk[i] = Math.max(1, Math.min(Math.max(1, dims[i]), i == 0 ? Math.min(chunk[0], fit) : fit));
                return chunk;
            }
            chunk[i] = 1;
        }
        return chunk;
    }

    private static long multiplyCapped(long a, long b) {
        long product = a * b;
        return (b != 0 && product / b != a) || product < 0 ? Long.MAX_VALUE : product;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ArrayChunking that
                && Arrays.equals(chunks, that.chunks)
                && Arrays.equals(shard, that.shard)
                && dimensionNames.equals(that.dimensionNames);
    }

    @Override
    public int hashCode() {
        return (Arrays.hashCode(chunks) * 31 + Arrays.hashCode(shard)) * 31 + dimensionNames.hashCode();
    }

    @Override
    public String toString() {
        return "chunks " + text(chunks) + (shard.length == 0 ? "" : " shard " + text(shard))
                + (dimensionNames.isEmpty() ? "" : " dimension names " + String.join(",", dimensionNames));
    }

    static String text(long[] dims) {
        return Arrays.stream(dims)
                .mapToObj(dim -> String.format(Locale.ROOT, "%d", dim))
                .collect(Collectors.joining(","));
    }
}
