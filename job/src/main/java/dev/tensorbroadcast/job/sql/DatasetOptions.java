package dev.tensorbroadcast.job.sql;

import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.UserText;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The options of a dataset read by its path ({@code load(dir)}): the path alone, since the manifest says the rest.
 */
final class DatasetOptions {
    /** Spark's option for {@code load(path)} and {@code save(path)}. */
    static final String PATH = "path";

    private DatasetOptions() {}

    /** The dataset's path when {@code options} name one and no broadcast {@code input}. */
    static Optional<String> path(CaseInsensitiveStringMap options) {
        if (options.containsKey(ReadOptions.INPUT) || !options.containsKey(PATH)) {
            return Optional.empty();
        }
        return Optional.of(options.get(PATH));
    }

    /** Refuses any option of a dataset's read but its path (a write takes {@code format}). */
    static void requireReadOnly(CaseInsensitiveStringMap options) {
        for (Map.Entry<String, String> option : options.entrySet()) {
            if (!option.getKey().equalsIgnoreCase(PATH)) {
                throw new InvalidRequestException("Cannot read a tensorbroadcast dataset with option '"
                        + UserText.shown(option.getKey()) + "': a dataset is read by its path alone (its manifest says"
                        + " the rest); give '" + ReadOptions.INPUT + "' to read a broadcast");
            }
        }
    }
}
