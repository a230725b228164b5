package dev.tensorbroadcast.job;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Param;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Which of a dataset input's other columns are written next to the expanded rows, as Spark's {@code withColumn} keeps
 * a table's columns: every one (the default), none, or the named ones in the order given.
 *
 * @param every whether every other column is kept
 * @param names the columns kept, when not all
 */
public record KeepColumns(boolean every, List<String> names) {
    /** Copies the names; refuses every column and named ones together. */
    public KeepColumns {
        names = List.copyOf(names);
        if (every && !names.isEmpty()) {
            throw new IllegalArgumentException("all columns or named ones, not both");
        }
    }

    /** Every other column kept: the default, {@code --keep all}. */
    public static KeepColumns all() {
        return new KeepColumns(true, List.of());
    }

    /** No other column kept: {@code --keep none}. */
    public static KeepColumns none() {
        return new KeepColumns(false, List.of());
    }

    /** The named columns kept, in the order given: {@code --keep a,b}. */
    public static KeepColumns of(String... names) {
        return new KeepColumns(false, Arrays.asList(names));
    }

    /** {@code all}, {@code none}, or names separated by commas, as {@code --keep} takes them. */
    public static KeepColumns parse(String text) {
        requireNonNull(text, "text is null");
        String trimmed = text.strip();
        if (trimmed.equals("all")) {
            return all();
        }
        if (trimmed.equals("none")) {
            return none();
        }
        LinkedHashSet<String> names = new LinkedHashSet<>();
        for (String name : trimmed.split(",", -1)) {
            String column = name.strip();
            if (column.isEmpty() || !names.add(column)) {
                throw new InvalidRequestException("Cannot keep columns '" + text + "': "
                        + (column.isEmpty() ? "a name is empty" : "'" + column + "' is named twice")
                        + "; give column names separated by commas (such as "
                        + Param.KEEP.given("KeepColumns.parse(\"user_id,label\")", "user_id,label") + "), all, or"
                        + " none");
            }
        }
        return new KeepColumns(false, List.copyOf(names));
    }

    /** Whether only named columns are kept and there are some: a choice that must be met, not a default. */
    public boolean named() {
        return !every && !names.isEmpty();
    }

    @Override
    public String toString() {
        return every ? "all" : names.isEmpty() ? "none" : String.join(",", names);
    }
}
