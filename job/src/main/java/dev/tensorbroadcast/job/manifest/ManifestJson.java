package dev.tensorbroadcast.job.manifest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;

/** Reads and writes {@code _manifest.json}; a manifest larger than {@link #MAX_BYTES} is refused unread. */
public final class ManifestJson {
    public static final int MAX_BYTES = 64 << 20;
    private static final String KEPT_COLUMNS = "kept_columns";
    private static final String ROW_LAYOUT = "row_layout";
    private static final String INPUTS = "inputs";
    private static final String INPUT_COLUMN = "column";
    private static final String INPUT_ROW_SHAPE = "row_shape";

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES);

    private ManifestJson() {}

    public static byte[] toBytes(Manifest manifest) {
        try {
            return MAPPER.writeValueAsBytes(manifest);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a manifest always serializes", e);
        }
    }

    /** Parses a manifest; {@code name} is only used in messages. */
    public static Manifest read(InputStream in, String name) throws IOException {
        byte[] bytes = in.readNBytes(MAX_BYTES + 1);
        if (bytes.length > MAX_BYTES) {
            throw new ManifestException("Cannot read " + name + ": it is larger than " + MAX_BYTES + " bytes");
        }
        try {
            JsonNode tree = MAPPER.readTree(bytes);
            if (!(tree instanceof ObjectNode object)) {
                // the mapper's own words for what the bytes are instead
                Manifest manifest = MAPPER.readValue(bytes, Manifest.class);
                if (manifest == null) {
                    throw new ManifestException("Cannot read " + name + ": it holds null, not a manifest");
                }
                return manifest;
            }
            if (!object.has(KEPT_COLUMNS)) {
                // written before datasets kept other columns: they keep none
                object.putArray(KEPT_COLUMNS);
            }
            if (object.get(INPUTS) instanceof com.fasterxml.jackson.databind.node.ArrayNode inputs) {
                for (JsonNode input : inputs) {
                    if (input instanceof ObjectNode entry) {
                        // written before inputs recorded how they were read, or read without either: not given
                        for (String key : new String[] {INPUT_COLUMN, INPUT_ROW_SHAPE}) {
                            if (!entry.has(key)) {
                                entry.putNull(key);
                            }
                        }
                    }
                }
            }
            if (!object.has(ROW_LAYOUT)) {
                // written before Parquet rows could be nested: flat
                object.put(ROW_LAYOUT, Manifest.FLAT_ROWS);
            }
            return MAPPER.treeToValue(object, Manifest.class);
        } catch (ManifestException e) {
            throw e;
        } catch (IOException e) {
            Throwable cause = e.getCause() instanceof ManifestException manifest ? manifest : null;
            if (cause != null) {
                throw (ManifestException) cause;
            }
            String reason = e instanceof JsonProcessingException json ? json.getOriginalMessage() : e.getMessage();
            throw new ManifestException("Cannot read " + name + ": "
                    + (reason == null
                            ? e.getClass().getSimpleName()
                            : reason.lines().findFirst().orElse(reason)));
        }
    }
}
