package dev.tensorbroadcast.arrowio.format.zarr;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;

/**
 * How a chunk's grid position is spelt as an object key ({@code chunk_key_encoding}): {@code default} prefixes
 * {@code c} ({@code c/0/1}, or {@code c} for a scalar), {@code v2} does not ({@code 0.1}, or {@code 0} for a scalar);
 * the separator is {@code /} or {@code .} (by default {@code /} for default, {@code .} for v2).
 */
record ChunkKeys(boolean prefixed, String separator) {
    ChunkKeys {
        requireNonNull(separator, "separator is null");
        if (!separator.equals("/") && !separator.equals(".")) {
            throw new IllegalArgumentException("separator '" + separator + "'");
        }
    }

    static ChunkKeys of(JsonNode encoding, String where) throws IOException {
        String name = encoding.path("name").asText("");
        boolean prefixed;
        if (name.equals("default")) {
            prefixed = true;
        } else if (name.equals("v2")) {
            prefixed = false;
        } else {
            throw new IOException(where + ": chunk_key_encoding '" + (name.isEmpty() ? encoding.toString() : name)
                    + "'; " + ZarrMetadata.READS);
        }
        String separator = encoding.path("configuration").path("separator").asText(prefixed ? "/" : ".");
        if (!separator.equals("/") && !separator.equals(".")) {
            throw new IOException(where + ": chunk_key_encoding separator '" + separator + "'; expected / or .");
        }
        return new ChunkKeys(prefixed, separator);
    }

    String key(long[] coordinates) {
        if (!prefixed) {
            if (coordinates.length == 0) {
                return "0";
            }
            StringBuilder key = new StringBuilder();
            for (int i = 0; i < coordinates.length; i++) {
                key.append(i == 0 ? "" : separator).append(coordinates[i]);
            }
            return key.toString();
        }
        return ChunkGrid.key(coordinates, separator);
    }
}
