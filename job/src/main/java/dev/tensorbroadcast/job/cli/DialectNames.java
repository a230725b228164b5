package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.InvalidRequestException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code --dialect} as typed: a dialect's name, or refused with the names and, for a common alias or a typo, the one
 * probably meant. An alias is only suggested, never taken: {@code torch} might as well be a typo of another name.
 */
final class DialectNames {
    /** What users call the frameworks besides our names. */
    private static final Map<String, Dialect> ALIASES = Map.of(
            "torch", Dialect.PYTORCH,
            "pt", Dialect.PYTORCH,
            "np", Dialect.NUMPY,
            "ov", Dialect.OPENVINO,
            "ms", Dialect.MINDSPORE,
            "paddlepaddle", Dialect.PADDLE,
            "pdpd", Dialect.PADDLE);

    private DialectNames() {}

    static Dialect parse(String text) {
        try {
            return Dialect.parse(text);
        } catch (InvalidRequestException e) {
            Optional<Dialect> meant = meant(text);
            if (meant.isEmpty()) {
                throw e;
            }
            throw new InvalidRequestException(
                    e.getMessage() + "; did you mean " + meant.get().dialectName() + "?");
        }
    }

    private static Optional<Dialect> meant(String text) {
        String typed = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        Dialect alias = ALIASES.get(typed);
        if (alias != null) {
            return Optional.of(alias);
        }
        return Arrays.stream(Dialect.values())
                .filter(dialect -> Typos.distance(typed, dialect.dialectName()) <= Math.max(1, typed.length() / 3))
                .min(Comparator.comparingInt(dialect -> Typos.distance(typed, dialect.dialectName())));
    }
}
