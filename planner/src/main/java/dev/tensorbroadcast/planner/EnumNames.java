package dev.tensorbroadcast.planner;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * Looks up the constant of an enum by the name a user types (case and surrounding blanks ignored); a name that is
 * none of them is refused with the list of accepted names.
 */
public final class EnumNames {
    private EnumNames() {}

    public static <E extends Enum<E>> Optional<E> find(E[] values, Function<E, String> name, String text) {
        String key = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values)
                .filter(value -> name.apply(value).equals(key))
                .findFirst();
    }

    /**
     * The constant named {@code text}, or an {@link InvalidRequestException} such as "Cannot use format 'csv':
     * expected arrow or parquet", where {@code what} is "Cannot use format".
     */
    public static <E extends Enum<E>> E parse(E[] values, Function<E, String> name, String text, String what) {
        return find(values, name, text)
                .orElseThrow(() -> new InvalidRequestException(
                        what + " '" + UserText.shown(text) + "': expected " + accepted(values, name)));
    }

    /** "a or b", "a, b or c". */
    public static <E extends Enum<E>> String accepted(E[] values, Function<E, String> name) {
        String[] names = Arrays.stream(values).map(name).toArray(String[]::new);
        if (names.length == 1) {
            return names[0];
        }
        return String.join(", ", Arrays.copyOf(names, names.length - 1)) + " or " + names[names.length - 1];
    }
}
