package dev.tensorbroadcast.arrowio.format.zarr;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.tensorbroadcast.arrowio.format.ArrayLayout;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Zarr v3 array's {@code zarr.json}: written from an {@link ArrayLayout}, and read back into one (with what a
 * reader needs beyond it: the key separator, the codecs' order), refusing what this tool cannot read.
 */
final class ZarrJson {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ZarrJson() {}

    /** What the reader needs: the layout, the separator of chunk keys, and whether the shard index has a crc32c. */
    record Read(ArrayLayout layout, String separator, boolean indexAtEnd, boolean indexCrc, String innerCodec) {}

    static byte[] write(ArrayLayout layout) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("zarr_format", 3);
        root.put("node_type", "array");
        root.put("shape", layout.shape().dims());
        root.put("data_type", layout.dtype().typeName());
        root.put("chunk_grid", Map.of("name", "regular", "configuration", Map.of("chunk_shape", layout.block())));
        root.put("chunk_key_encoding", Map.of("name", "default", "configuration", Map.of("separator", "/")));
        root.put("fill_value", fillValue(layout.dtype()));
        List<Object> chunkCodecs = chunkCodecs(layout);
        if (layout.sharded()) {
            Map<String, Object> sharding = new LinkedHashMap<>();
            sharding.put("chunk_shape", layout.chunks());
            sharding.put("codecs", chunkCodecs);
            sharding.put("index_codecs", List.of(bytesCodec(8), Map.of("name", "crc32c")));
            sharding.put("index_location", "end");
            root.put("codecs", List.of(Map.of("name", "sharding_indexed", "configuration", sharding)));
        } else {
            root.put("codecs", chunkCodecs);
        }
        if (!layout.dimensionNames().isEmpty()) {
            root.put("dimension_names", layout.dimensionNames());
        }
        root.put("attributes", Map.of());
        try {
            return JSON.writeValueAsString(root).getBytes(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write zarr.json", e);
        }
    }

    private static List<Object> chunkCodecs(ArrayLayout layout) {
        List<Object> codecs = new ArrayList<>();
        codecs.add(bytesCodec(ArrayLayout.storedBytes(layout.dtype())));
        if (layout.codec().equals("zstd")) {
            codecs.add(Map.of("name", "zstd", "configuration", Map.of("level",
                    layout.level() == 0 ? ZarrFormat.DEFAULT_ZSTD_LEVEL : layout.level(), "checksum", false)));
        } else if (layout.codec().equals("gzip")) {
            codecs.add(Map.of("name", "gzip", "configuration", Map.of("level",
                    layout.level() == 0 ? ZarrFormat.DEFAULT_GZIP_LEVEL : layout.level())));
        }
        return codecs;
    }

    /** The {@code bytes} codec; a one-byte type has no endianness to name. */
    private static Object bytesCodec(int width) {
        return width == 1 ? Map.of("name", "bytes") : Map.of("name", "bytes", "configuration",
                Map.of("endian", "little"));
    }

    private static Object fillValue(DType dtype) {
        return switch (dtype) {
            case BOOL -> false;
            case FLOAT16, FLOAT32, FLOAT64 -> 0.0;
            case COMPLEX64, COMPLEX128 -> List.of(0.0, 0.0);
            default -> 0;
        };
    }

    static Read read(byte[] bytes, String where) throws IOException {
        JsonNode root = JSON.readTree(bytes);
        if (root == null || root.path("zarr_format").asInt() != 3 || !"array".equals(root.path("node_type").asText())) {
            throw new IOException(where + " is not a Zarr v3 array's zarr.json (zarr_format 3, node_type array)");
        }
        long[] shape = longs(root.path("shape"), where, "shape");
        String typeName = root.path("data_type").asText();
        DType dtype = ZarrFormat.dtype(typeName).orElseThrow(() -> new IOException(where + ": data_type '" + typeName
                + "' is not one this tool reads (bool, int8..uint64, float16/32/64, complex64/128)"));
        JsonNode grid = root.path("chunk_grid");
        if (!"regular".equals(grid.path("name").asText())) {
            throw new IOException(where + ": chunk_grid '" + grid.path("name").asText() + "'; expected regular");
        }
        long[] block = longs(grid.path("configuration").path("chunk_shape"), where, "chunk_shape");
        JsonNode keys = root.path("chunk_key_encoding");
        if (!"default".equals(keys.path("name").asText())) {
            throw new IOException(where + ": chunk_key_encoding '" + keys.path("name").asText()
                    + "'; this tool reads default");
        }
        String separator = keys.path("configuration").path("separator").asText("/");
        requireZeroFill(root.path("fill_value"), where);
        JsonNode codecs = root.path("codecs");
        long[] chunks = block;
        long[] shard = new long[0];
        boolean indexAtEnd = true;
        boolean indexCrc = false;
        if (codecs.size() == 1 && "sharding_indexed".equals(codecs.get(0).path("name").asText())) {
            JsonNode sharding = codecs.get(0).path("configuration");
            shard = block;
            chunks = longs(sharding.path("chunk_shape"), where, "sharding chunk_shape");
            codecs = sharding.path("codecs");
            indexAtEnd = !"start".equals(sharding.path("index_location").asText("end"));
            for (JsonNode codec : sharding.path("index_codecs")) {
                String name = codec.path("name").asText();
                if (name.equals("crc32c")) {
                    indexCrc = true;
                } else if (!name.equals("bytes") || "big".equals(codec.path("configuration").path("endian").asText())) {
                    throw new IOException(where + ": shard index codec '" + name + "'; this tool reads bytes"
                            + " (little endian) and crc32c");
                }
            }
        }
        String codec = "none";
        int level = 0;
        for (int i = 0; i < codecs.size(); i++) {
            JsonNode entry = codecs.get(i);
            String name = entry.path("name").asText();
            if (i == 0 && name.equals("bytes")) {
                if ("big".equals(entry.path("configuration").path("endian").asText())) {
                    throw new IOException(where + ": big-endian chunks; this tool reads little-endian ones");
                }
            } else if (i == 1 && (name.equals("zstd") || name.equals("gzip")) && codecs.size() == 2) {
                codec = name;
                level = entry.path("configuration").path("level").asInt(0);
            } else {
                throw new IOException(where + ": codecs " + codecs + "; this tool reads bytes, optionally followed"
                        + " by zstd or gzip, inside sharding_indexed or not");
            }
        }
        if (shard.length != 0 && shard.length != chunks.length) {
            throw new IOException(where + ": shard rank differs from the chunks'");
        }
        try {
            ArrayLayout layout = new ArrayLayout(Shape.of(shape), dtype, chunks, shard, codec, level);
            return new Read(layout, separator, indexAtEnd, indexCrc, codec);
        } catch (IllegalArgumentException e) {
            throw new IOException(where + ": " + e.getMessage(), e);
        }
    }

    private static void requireZeroFill(JsonNode fill, String where) throws IOException {
        boolean zero = fill.isBoolean() ? !fill.asBoolean()
                : fill.isNumber() ? fill.asDouble() == 0.0
                : fill.isArray() && fill.size() == 2 && fill.get(0).asDouble() == 0.0 && fill.get(1).asDouble() == 0.0;
        if (!zero) {
            throw new IOException(where + ": fill_value " + fill + "; this tool reads arrays filled with zero");
        }
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
}
