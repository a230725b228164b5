package dev.tensorbroadcast.arrowio.format.zarr;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.tensorbroadcast.arrowio.format.ArrayLayout;
import dev.tensorbroadcast.arrowio.format.Compression;
import dev.tensorbroadcast.arrowio.format.OutputCompression;
import dev.tensorbroadcast.planner.DType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Zarr v3 array's {@code zarr.json}, written from an {@link ArrayLayout} ({@link ZarrMetadata} reads one).
 */
final class ZarrJson {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ZarrJson() {}

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
        Compression compression = layout.compression();
        if (compression.codec() == OutputCompression.ZSTD) {
            codecs.add(Map.of(
                    "name",
                    "zstd",
                    "configuration",
                    Map.of("level", ZarrCodecs.zstdLevel(compression.level()), "checksum", false)));
        } else if (compression.codec() == OutputCompression.GZIP) {
            codecs.add(Map.of(
                    "name", "gzip", "configuration", Map.of("level", ZarrCodecs.gzipLevel(compression.level()))));
        }
        return codecs;
    }

    /** The {@code bytes} codec; a one-byte type has no endianness to name. */
    private static Object bytesCodec(int width) {
        return width == 1
                ? Map.of("name", "bytes")
                : Map.of("name", "bytes", "configuration", Map.of("endian", "little"));
    }

    private static Object fillValue(DType dtype) {
        return switch (dtype) {
            case BOOL -> false;
            case FLOAT16, FLOAT32, FLOAT64 -> 0.0;
            case COMPLEX64, COMPLEX128 -> List.of(0.0, 0.0);
            default -> 0;
        };
    }
}
