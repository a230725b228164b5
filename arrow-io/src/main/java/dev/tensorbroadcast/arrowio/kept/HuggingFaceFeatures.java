package dev.tensorbroadcast.arrowio.kept;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tensorbroadcast.planner.Shape;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Hugging Face {@code datasets}' description of a table's columns, which it writes into the schema metadata of its
 * Arrow and Parquet files under {@code huggingface} ({@code {"info": {"features": {column: feature}}}}) and reads back
 * when it loads them: a {@code ClassLabel} is an int64 column whose names only this holds. A kept column carries its
 * feature from the input to the output, so {@code load_dataset} gives back what the input had.
 */
public final class HuggingFaceFeatures {
    /** The schema metadata key {@code datasets} writes and reads. */
    public static final String KEY = "huggingface";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private HuggingFaceFeatures() {}

    /**
     * The feature of each column (as JSON) in the schema metadata value {@code json}; none for a value that is not
     * {@code datasets}' (a file of another writer under the same key only loses what it would have carried).
     */
    public static Map<String, String> parse(String json) {
        Map<String, String> features = new LinkedHashMap<>();
        if (json == null) {
            return features;
        }
        try {
            JsonNode node = MAPPER.readTree(json).path("info").path("features");
            node.fields().forEachRemaining(entry -> {
                if (entry.getValue().isObject()) {
                    features.put(entry.getKey(), entry.getValue().toString());
                }
            });
        } catch (JsonProcessingException e) {
            // not datasets' metadata: nothing to carry
        }
        return features;
    }

    /** {@code column} with its feature from {@code features}, when it has one there. */
    public static Optional<KeptColumn> withFeature(Optional<KeptColumn> column, Map<String, String> features) {
        return column.map(kept ->
                features.containsKey(kept.name()) ? kept.withHuggingFaceFeature(features.get(kept.name())) : kept);
    }

    /**
     * The schema metadata value for an output of the {@code kept} columns and a tensor column {@code tensor} whose
     * feature is {@code tensorFeature}: empty when no kept column has a feature (the input was not {@code datasets}'),
     * so other outputs stay as they were. Columns without a feature are left to {@code datasets}, which derives one
     * from their Arrow type.
     */
    public static Optional<String> schemaMetadata(
            List<KeptColumn> kept, String tensor, Optional<String> tensorFeature) {
        if (kept.stream().allMatch(column -> column.huggingFaceFeature() == null)) {
            return Optional.empty();
        }
        ObjectNode root = MAPPER.createObjectNode();
        ObjectNode features = root.putObject("info").putObject("features");
        try {
            if (tensorFeature.isPresent()) {
                features.set(tensor, MAPPER.readTree(tensorFeature.get()));
            }
            for (KeptColumn column : kept) {
                if (column.huggingFaceFeature() != null) {
                    features.set(column.name(), MAPPER.readTree(column.huggingFaceFeature()));
                }
            }
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a feature read as JSON does not parse again", e);
        }
        return Optional.of(root.toString());
    }

    /**
     * The feature of rows nested as lists of {@code lists} sizes over values of {@code valueType}: a
     * {@code Sequence} of fixed length per level (the form every {@code datasets} version reads) around a
     * {@code Value}; empty for a value type {@code datasets} has no {@code Value} for.
     */
    public static Optional<String> nestedLists(Shape lists, ArrowType valueType) {
        Optional<String> dtype = valueDtype(valueType);
        if (dtype.isEmpty()) {
            return Optional.empty();
        }
        ObjectNode feature = MAPPER.createObjectNode().put("dtype", dtype.get()).put("_type", "Value");
        for (int axis = lists.rank() - 1; axis >= 0; axis--) {
            ObjectNode level = MAPPER.createObjectNode();
            level.set("feature", feature);
            level.put("length", lists.dim(axis)).put("_type", "Sequence");
            feature = level;
        }
        return Optional.of(feature.toString());
    }

    private static Optional<String> valueDtype(ArrowType type) {
        if (type instanceof ArrowType.Int integer) {
            return Optional.of((integer.getIsSigned() ? "int" : "uint") + integer.getBitWidth());
        }
        if (type instanceof ArrowType.FloatingPoint floating) {
            return Optional.of(
                    switch (floating.getPrecision()) {
                        case HALF -> "float16";
                        case SINGLE -> "float32";
                        case DOUBLE -> "float64";
                    });
        }
        if (type instanceof ArrowType.Bool) {
            return Optional.of("bool");
        }
        if (type instanceof ArrowType.Utf8) {
            return Optional.of("string");
        }
        return Optional.empty();
    }
}
