package dev.tensorbroadcast.arrowio.format;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import java.io.Serializable;
import java.util.Optional;

/**
 * A column of a dataset's files other than the tensor column and the {@code index}: one that can be kept next to the
 * expanded rows, or the reason it cannot.
 *
 * @param name the column's name
 * @param type its type as the files state it, for messages
 * @param kept how it is kept, or null when it cannot be
 * @param whyNot why it cannot be kept, or null when it can
 */
public record OtherColumn(String name, String type, KeptColumn kept, String whyNot) implements Serializable {
    public OtherColumn {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        if ((kept == null) == (whyNot == null)) {
            throw new IllegalArgumentException("a column is kept or has a reason not to be");
        }
    }

    /** A column of {@code type}, kept as {@code kept} when present, else refused for its type. */
    public static OtherColumn of(String name, String type, Optional<KeptColumn> kept) {
        return kept.map(column -> new OtherColumn(name, column.typeName(), column, null))
                .orElseGet(() -> new OtherColumn(
                        name, type, null, "it is " + type + "; a kept column holds " + KeptColumn.ACCEPTED));
    }

    public Optional<KeptColumn> keptColumn() {
        return Optional.ofNullable(kept);
    }

    /** The same column, refused because the files disagree on it. */
    public OtherColumn refused(String reason) {
        return new OtherColumn(name, type, null, reason);
    }
}
