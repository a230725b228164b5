package dev.tensorbroadcast.arrowio.format.zarr;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tensorbroadcast.arrowio.format.ArrayLayout;
import dev.tensorbroadcast.arrowio.format.Compression;
import dev.tensorbroadcast.arrowio.format.OutputCompression;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Shape;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A Zarr v3 array's {@code zarr.json} as a reader needs it (ours or another writer's: tensorstore, zarr-python):
 * the layout, how chunk keys are spelled, the byte order of the chunks, the shard index's place and checksum, and
 * the fill value that a missing chunk reads as. What this tool cannot read is refused naming the value and what it
 * reads instead.
 *
 * @param layout shape, dtype, chunks, shard and the compression codec ({@code none}, {@code zstd}, {@code gzip})
 * @param keys how a chunk's (or shard's) grid position is spelled as a key
 * @param order the byte order of the {@code bytes} codec (one-byte types: little)
 * @param chunkCrc whether each chunk ends with its CRC-32C ({@code crc32c} among the chunk codecs)
 * @param indexAtEnd whether a shard's index follows its chunks (else precedes them)
 * @param indexOrder the byte order of a shard's index
 * @param indexCrc whether a shard's index ends with its CRC-32C
 * @param fill one element of the fill value, little endian, as a decoded chunk holds it ({@code bool} one byte)
 */
@SuppressWarnings("ArrayRecordComponent") // fill is copied in and out; a metadata is read, never compared
record ZarrMetadata(
        ArrayLayout layout,
        ChunkKeys keys,
        ByteOrder order,
        boolean chunkCrc,
        boolean indexAtEnd,
        ByteOrder indexOrder,
        boolean indexCrc,
        byte[] fill) {
    static final String READS = "this tool reads a regular chunk_grid, the default or v2 chunk_key_encoding, and"
            + " the codecs bytes (little or big endian), then zstd, gzip or crc32c, inside sharding_indexed or not";
    private static final ObjectMapper JSON = new ObjectMapper();

    ZarrMetadata {
        requireNonNull(layout, "layout is null");
        requireNonNull(keys, "keys is null");
        requireNonNull(order, "order is null");
        requireNonNull(indexOrder, "indexOrder is null");
        fill = fill.clone();
        if (fill.length != ArrayLayout.storedBytes(layout.dtype())) {
            throw new IllegalArgumentException("a fill value of " + fill.length + " bytes for " + layout.dtype());
        }
    }

    @Override
    public byte[] fill() {
        return fill.clone();
    }

    /** Whether the fill value is all zero bytes (a fresh Java array already holds it). */
    boolean zeroFill() {
        for (byte b : fill) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    /** Reads {@code bytes}, the {@code zarr.json} at {@code where}, or says in one line why this tool cannot. */
    static ZarrMetadata read(byte[] bytes, String where) throws IOException {
        JsonNode root;
        try {
            root = JSON.readTree(bytes);
        } catch (IOException e) {
            throw new IOException(
                    where + " is not JSON: "
                            + e.getMessage().lines().findFirst().orElse(""),
                    e);
        }
        if (root == null
                || root.path("zarr_format").asInt() != 3
                || !"array".equals(root.path("node_type").asText())) {
            throw new IOException(where + " is not a Zarr v3 array's zarr.json (zarr_format 3, node_type array)");
        }
        long[] shape = longs(root.path("shape"), where, "shape");
        String typeName = root.path("data_type").isTextual()
                ? root.path("data_type").asText()
                : root.path("data_type").toString();
        DType dtype = ZarrFormat.dtype(typeName)
                .orElseThrow(() -> new IOException(where + ": data_type '" + typeName
                        + "' is not one this tool reads (bool, int8..uint64, float16/32/64, complex64/128)"));
        JsonNode grid = root.path("chunk_grid");
        if (!"regular".equals(grid.path("name").asText())) {
            throw new IOException(where + ": chunk_grid '" + name(grid) + "'; " + READS);
        }
        long[] block = longs(grid.path("configuration").path("chunk_shape"), where, "chunk_shape");
        ChunkKeys keys = ChunkKeys.of(root.path("chunk_key_encoding"), where);
        JsonNode transformers = root.path("storage_transformers");
        if (transformers.isArray() && !transformers.isEmpty()) {
            throw new IOException(where + ": storage_transformers " + transformers + "; this tool reads none");
        }
        JsonNode codecs = root.path("codecs");
        if (!codecs.isArray() || codecs.isEmpty()) {
            throw new IOException(where + ": codecs " + codecs + "; " + READS);
        }
        long[] chunks = block;
        long[] shard = new long[0];
        boolean indexAtEnd = true;
        ByteOrder indexOrder = ByteOrder.LITTLE_ENDIAN;
        boolean indexCrc = false;
        if ("sharding_indexed".equals(codecs.get(0).path("name").asText())) {
            if (codecs.size() != 1) {
                throw new IOException(
                        where + ": codecs after sharding_indexed (" + name(codecs.get(1)) + "); " + READS);
            }
            JsonNode sharding = codecs.get(0).path("configuration");
            shard = block;
            chunks = longs(sharding.path("chunk_shape"), where, "sharding chunk_shape");
            codecs = sharding.path("codecs");
            String location = sharding.path("index_location").asText("end");
            if (!location.equals("end") && !location.equals("start")) {
                throw new IOException(where + ": index_location '" + location + "'; expected start or end");
            }
            indexAtEnd = location.equals("end");
            int at = 0;
            for (JsonNode codec : sharding.path("index_codecs")) {
                String name = codec.path("name").asText();
                if (at == 0 && name.equals("bytes")) {
                    indexOrder = byteOrder(codec, where);
                } else if (at == 1 && name.equals("crc32c")) {
                    indexCrc = true;
                } else {
                    throw new IOException(where + ": shard index codec '" + name(codec) + "'; this tool reads bytes"
                            + " (little or big endian), then crc32c");
                }
                at++;
            }
        }
        ChunkCodecs chain = ChunkCodecs.of(codecs, chunks.length, where);
        if (shape.length != block.length || shape.length != chunks.length) {
            throw new IOException(
                    where + ": shape " + java.util.Arrays.toString(shape) + " and chunk_shape of another" + " rank");
        }
        try {
            ArrayLayout layout = new ArrayLayout(Shape.of(shape), dtype, chunks, shard, chain.compression());
            return new ZarrMetadata(
                    layout,
                    keys,
                    chain.order(),
                    chain.crc(),
                    indexAtEnd,
                    indexOrder,
                    indexCrc,
                    ZarrFill.of(root.path("fill_value"), dtype, where));
        } catch (IllegalArgumentException e) {
            throw new IOException(where + ": " + e.getMessage(), e);
        }
    }

    /** The chunk codecs read: byte order, compression and whether a CRC-32C ends each chunk. */
    private record ChunkCodecs(ByteOrder order, String codec, int level, boolean crc) {
        static ChunkCodecs of(JsonNode codecs, int rank, String where) throws IOException {
            ByteOrder order = null;
            String codec = "none";
            int level = 0;
            boolean crc = false;
            for (JsonNode entry : codecs) {
                String name = entry.path("name").asText();
                if (order == null
                        && name.equals("transpose")
                        && identity(entry.path("configuration").path("order"), rank)) {
                    continue; // C order spelt out: nothing to undo
                }
                if (order == null && name.equals("bytes")) {
                    order = byteOrder(entry, where);
                } else if (order != null
                        && !crc
                        && codec.equals("none")
                        && (name.equals("zstd") || name.equals("gzip"))) {
                    codec = name;
                    level = entry.path("configuration").path("level").asInt(0);
                } else if (order != null && !crc && name.equals("crc32c")) {
                    crc = true;
                } else {
                    String detail = name.equals("transpose")
                            ? " (order " + entry.path("configuration").path("order") + ")"
                            : "";
                    throw new IOException(
                            where + ": codec '" + name(entry) + "'" + detail + " in " + names(codecs) + "; " + READS);
                }
            }
            if (order == null) {
                throw new IOException(where + ": codecs " + names(codecs) + " without bytes; " + READS);
            }
            return new ChunkCodecs(order, codec, level, crc);
        }

        /**
         * The codec as a layout holds it. Another tool may store a level this tool does not write (zstd's negative
         * ones, say): a decoder needs the codec, not its level, so such a level reads as the codec's default.
         */
        Compression compression() {
            OutputCompression kind = OutputCompression.parse(codec);
            try {
                return new Compression(kind, level);
            } catch (InvalidRequestException e) {
                return Compression.of(kind);
            }
        }

        private static boolean identity(JsonNode order, int rank) {
            if (!order.isArray() || order.size() != rank) {
                return false;
            }
            for (int i = 0; i < rank; i++) {
                if (order.get(i).asInt(-1) != i) {
                    return false;
                }
            }
            return true;
        }
    }

    private static ByteOrder byteOrder(JsonNode bytesCodec, String where) throws IOException {
        String endian = bytesCodec.path("configuration").path("endian").asText("little");
        return switch (endian) {
            case "little" -> ByteOrder.LITTLE_ENDIAN;
            case "big" -> ByteOrder.BIG_ENDIAN;
            default -> throw new IOException(where + ": bytes endian '" + endian + "'; expected little or big");
        };
    }

    private static String name(JsonNode node) {
        String name = node.path("name").asText();
        return name.isEmpty() ? node.toString() : name;
    }

    private static String names(JsonNode codecs) {
        List<String> names = new ArrayList<>();
        codecs.forEach(codec -> names.add(name(codec)));
        return names.toString();
    }

    private static long[] longs(JsonNode node, String where, String what) throws IOException {
        if (!node.isArray()) {
            throw new IOException(where + ": " + what + " is not a list of integers");
        }
        long[] values = new long[node.size()];
        for (int i = 0; i < values.length; i++) {
            if (!node.get(i).canConvertToLong() || node.get(i).asLong() < 0) {
                throw new IOException(where + ": " + what + " " + node + " is not a list of integers >= 0");
            }
            values[i] = node.get(i).asLong();
        }
        return values;
    }

    /** Swaps each element of {@code bytes} from {@code order} to little endian in place (complex: each half). */
    static void toLittleEndian(byte[] bytes, int from, int length, DType dtype, ByteOrder order) {
        int width = ArrayLayout.storedBytes(dtype);
        if (order == ByteOrder.LITTLE_ENDIAN || width == 1) {
            return;
        }
        int unit = dtype == DType.COMPLEX64 || dtype == DType.COMPLEX128 ? width / 2 : width;
        for (int at = from; at < from + length; at += unit) {
            for (int i = 0, j = unit - 1; i < j; i++, j--) {
                byte b = bytes[at + i];
                bytes[at + i] = bytes[at + j];
                bytes[at + j] = b;
            }
        }
    }

    /** The 64-bit little or big endian value at {@code at}. */
    static long longAt(byte[] bytes, int at, ByteOrder order) {
        return ByteBuffer.wrap(bytes, at, 8).order(order).getLong();
    }
}
