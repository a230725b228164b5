package dev.tensorbroadcast.arrowio.format.arrow;

import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import java.util.Optional;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthViewVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * An Arrow source's kept column as stored, which may differ from the kept type: strings and binaries as views
 * (polars' {@code Utf8View}, {@code BinaryView}) or dictionary-encoded; values are copied into the kept vector
 * decoded.
 */
final class KeptArrowValues {
    private KeptArrowValues() {}

    /** The kept column {@code field} gives, its dictionary's value type looked up in {@code dictionaries}. */
    static Optional<KeptColumn> kept(Field field, DictionaryProvider dictionaries) {
        if (field.getDictionary() == null) {
            return KeptColumn.ofArrow(field);
        }
        Dictionary dictionary = dictionaries.lookup(field.getDictionary().getId());
        return dictionary == null
                ? Optional.empty()
                : KeptColumn.ofArrowDictionary(field.getName(), dictionary.getVectorType());
    }

    /** How messages name the stored type: {@code dictionary<Utf8View>} for a dictionary-encoded column. */
    static String typeName(Field field, DictionaryProvider dictionaries) {
        if (field.getDictionary() == null) {
            return field.getType().toString();
        }
        Dictionary dictionary = dictionaries.lookup(field.getDictionary().getId());
        return "dictionary<" + (dictionary == null ? "?" : dictionary.getVectorType()) + ">";
    }

    /** Copies rows {@code [first, last)} of {@code source} to {@code target} from row {@code at} on, decoded. */
    static void copy(
            FieldVector source,
            Field field,
            DictionaryProvider dictionaries,
            int first,
            int last,
            FieldVector target,
            int at) {
        if (field.getDictionary() != null) {
            BaseIntVector indices = (BaseIntVector) source;
            FieldVector values =
                    dictionaries.lookup(field.getDictionary().getId()).getVector();
            for (int row = first; row < last; row++) {
                if (source.isNull(row)) {
                    target.setNull(at + row - first);
                } else {
                    copyOne(values, (int) indices.getValueAsLong(row), target, at + row - first);
                }
            }
            return;
        }
        for (int row = first; row < last; row++) {
            copyOne(source, row, target, at + row - first);
        }
    }

    private static void copyOne(FieldVector source, int row, FieldVector target, int to) {
        if (!(source instanceof BaseVariableWidthViewVector view) || target.getClass() == source.getClass()) {
            target.copyFromSafe(row, to, source);
            return;
        }
        byte[] bytes = view.get(row);
        if (bytes == null) {
            target.setNull(to);
        } else if (target instanceof BaseVariableWidthVector narrow) {
            narrow.setSafe(to, bytes);
        } else {
            ((BaseLargeVariableWidthVector) target).setSafe(to, bytes);
        }
    }
}
