package dev.tensorbroadcast.arrowio;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tensorbroadcast.planner.Shape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The parameters of an {@code arrow.fixed_shape_tensor} column as the Arrow canonical extension spec serializes them
 * in {@code ARROW:extension:metadata}: {@code {"shape":[2,3]}} plus the optional {@code "dim_names"} and
 * {@code "permutation"}. Readers use {@link #parse} on a field's metadata whether or not the extension type is
 * registered.
 *
 * @param shape the logical shape of one tensor (one row)
 * @param dimNames one name per dimension, or empty when the metadata has none
 * @param permutation the physical-to-logical axis order, or null when the metadata has none (row-major)
 */
@SuppressWarnings("ArrayRecordComponent") // copied in and out, and compared by content in equals and hashCode
public record TensorTypeMetadata(Shape shape, List<String> dimNames, int[] permutation) {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    public TensorTypeMetadata {
        requireNonNull(shape, "shape is null");
        requireNonNull(dimNames, "dimNames is null");
        dimNames = List.copyOf(dimNames);
        if (!dimNames.isEmpty() && dimNames.size() != shape.rank()) {
            throw new IllegalArgumentException("Cannot use dim_names " + dimNames + " for tensor shape "
                    + shape.toList() + ": expected " + shape.rank() + " names, one per dimension");
        }
        if (permutation != null) {
            permutation = permutation.clone();
            checkPermutation(permutation, shape);
        }
    }

    /** Row-major tensors of this shape, without dimension names. */
    public static TensorTypeMetadata of(Shape shape) {
        return new TensorTypeMetadata(shape, List.of(), null);
    }

    public static TensorTypeMetadata parse(String json) {
        requireNonNull(json, "json is null");
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw invalid(json, "it is not valid JSON (" + e.getOriginalMessage() + ")");
        }
        if (root == null || !root.isObject()) {
            throw invalid(json, "expected a JSON object such as {\"shape\":[2,3]}");
        }
        JsonNode shapeNode = root.get("shape");
        if (shapeNode == null || !shapeNode.isArray()) {
            throw invalid(json, "expected \"shape\" to be an array of non-negative integers");
        }
        long[] dims = new long[shapeNode.size()];
        if (dims.length > Shape.MAX_RANK) {
            throw invalid(
                    json, "the shape has " + dims.length + " dimensions, at most " + Shape.MAX_RANK + " are supported");
        }
        for (int i = 0; i < dims.length; i++) {
            JsonNode dim = shapeNode.get(i);
            if (!dim.canConvertToExactIntegral() || !dim.canConvertToLong() || dim.asLong() < 0) {
                throw invalid(json, "shape entry " + i + " is " + dim + "; expected a non-negative integer");
            }
            dims[i] = dim.asLong();
        }
        Shape shape = Shape.of(dims);
        List<String> names = List.of();
        JsonNode namesNode = root.get("dim_names");
        if (namesNode != null && !namesNode.isNull()) {
            if (!namesNode.isArray()) {
                throw invalid(json, "expected \"dim_names\" to be an array of strings");
            }
            List<String> parsed = new ArrayList<>(namesNode.size());
            for (JsonNode name : namesNode) {
                if (!name.isTextual()) {
                    throw invalid(json, "dim_names entry " + name + " is not a string");
                }
                parsed.add(name.asText());
            }
            if (parsed.size() != dims.length) {
                throw invalid(json, "dim_names has " + parsed.size() + " names for " + dims.length + " dimensions");
            }
            names = parsed;
        }
        int[] permutation = null;
        JsonNode permutationNode = root.get("permutation");
        if (permutationNode != null && !permutationNode.isNull()) {
            if (!permutationNode.isArray()) {
                throw invalid(json, "expected \"permutation\" to be an array of integers");
            }
            permutation = new int[permutationNode.size()];
            for (int i = 0; i < permutation.length; i++) {
                JsonNode axis = permutationNode.get(i);
                if (!axis.canConvertToExactIntegral() || !axis.canConvertToInt()) {
                    throw invalid(json, "permutation entry " + i + " is " + axis + "; expected an integer");
                }
                permutation[i] = axis.asInt();
            }
            try {
                checkPermutation(permutation, shape);
            } catch (IllegalArgumentException e) {
                throw invalid(
                        json,
                        "permutation " + Arrays.toString(permutation) + " is not a permutation of 0.."
                                + (dims.length - 1));
            }
        }
        return new TensorTypeMetadata(shape, names, permutation);
    }

    /** The canonical JSON, keys in the order shape, dim_names, permutation, without spaces. */
    public String toJson() {
        ObjectNode root = MAPPER.createObjectNode();
        ArrayNode dims = root.putArray("shape");
        for (long dim : shape.dims()) {
            dims.add(dim);
        }
        if (!dimNames.isEmpty()) {
            ArrayNode names = root.putArray("dim_names");
            dimNames.forEach(names::add);
        }
        if (permutation != null) {
            ArrayNode axes = root.putArray("permutation");
            for (int axis : permutation) {
                axes.add(axis);
            }
        }
        try {
            return MAPPER.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize " + root, e);
        }
    }

    @Override
    public int[] permutation() {
        return permutation == null ? null : permutation.clone();
    }

    /** True when the physical layout is row-major in the logical shape: no permutation or the identity. */
    public boolean isRowMajor() {
        if (permutation == null) {
            return true;
        }
        for (int i = 0; i < permutation.length; i++) {
            if (permutation[i] != i) {
                return false;
            }
        }
        return true;
    }

    /** The number of elements of one tensor, the storage list size. */
    public long elements() {
        return shape.elements();
    }

    private static void checkPermutation(int[] permutation, Shape shape) {
        boolean[] seen = new boolean[permutation.length];
        boolean valid = permutation.length == shape.rank();
        for (int axis : permutation) {
            if (!valid || axis < 0 || axis >= permutation.length || seen[axis]) {
                valid = false;
                break;
            }
            seen[axis] = true;
        }
        if (!valid) {
            throw new IllegalArgumentException("Cannot use permutation " + Arrays.toString(permutation)
                    + " for tensor shape " + shape.toList() + ": expected a permutation of 0.." + (shape.rank() - 1));
        }
    }

    private static IllegalArgumentException invalid(String json, String reason) {
        return new IllegalArgumentException("Cannot parse arrow.fixed_shape_tensor metadata '" + json + "': " + reason);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof TensorTypeMetadata that
                && shape.equals(that.shape)
                && dimNames.equals(that.dimNames)
                && Arrays.equals(permutation, that.permutation);
    }

    @Override
    public int hashCode() {
        return (31 * shape.hashCode() + dimNames.hashCode()) * 31 + Arrays.hashCode(permutation);
    }

    @Override
    public String toString() {
        return toJson();
    }
}
