package dev.tensorbroadcast.arrowio.format.arrow;

import dev.tensorbroadcast.planner.Shape;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Hugging Face {@code datasets}' {@code Array2D}..{@code Array5D} features: stored as nested lists under an
 * extension type ({@code datasets.features.features.Array2DExtensionType}) whose metadata is the shape and the dtype,
 * {@code [[2, 4], "float32"]}. Arrow Java does not know the type, so it keeps the storage type and this metadata.
 */
final class HuggingFaceArrays {
    private static final Pattern NAME = Pattern.compile("datasets\\.features\\.features\\.Array[2-5]DExtensionType");
    /** The shape: a list of dims, each a number; a dim of None (null) leaves the shape to --row-shape. */
    private static final Pattern METADATA = Pattern.compile("\\s*\\[\\s*\\[([0-9,\\s]*)\\]\\s*,.*", Pattern.DOTALL);

    private HuggingFaceArrays() {}

    /** The row shape an {@code ArrayND} column fixes, or empty for any other column (or a dynamic first dim). */
    static Optional<Shape> rowShape(Field field) {
        Map<String, String> metadata = field.getMetadata() == null ? Map.of() : field.getMetadata();
        String name = metadata.get(ArrowType.ExtensionType.EXTENSION_METADATA_KEY_NAME);
        String json = metadata.get(ArrowType.ExtensionType.EXTENSION_METADATA_KEY_METADATA);
        if (name == null || json == null || !NAME.matcher(name).matches()) {
            return Optional.empty();
        }
        Matcher matcher = METADATA.matcher(json);
        if (!matcher.matches() || matcher.group(1).isBlank()) {
            return Optional.empty();
        }
        @SuppressWarnings(
                "StringSplitter") // a trailing comma, as in a 1-tuple, is dropped; other empties fail to parse
        String[] parts = matcher.group(1).split(",");
        long[] dims = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            dims[i] = Long.parseLong(parts[i].strip());
        }
        return Optional.of(Shape.of(dims));
    }
}
