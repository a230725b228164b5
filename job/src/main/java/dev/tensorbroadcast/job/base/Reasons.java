package dev.tensorbroadcast.job.base;

import dev.tensorbroadcast.planner.BroadcastException;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The one line of an exception a user is shown as the reason: an object store's refusal in a few words
 * (a {@link StoreFailureReader}'s), else its message's first line, or its type. A refusal's
 * parameter mentions are kept, so the message that quotes it names them as its own reader (Java or CLI) does.
 */
public final class Reasons {
    private static final List<StoreFailureReader> STORES =
            ServiceLoader.load(StoreFailureReader.class, Reasons.class.getClassLoader()).stream()
                    .map(ServiceLoader.Provider::get)
                    .toList();

    private Reasons() {}

    /** A store's short reason for {@code error}, when a store's reader recognises it as its refusal or silence. */
    public static Optional<String> ofStore(Throwable error) {
        for (StoreFailureReader store : STORES) {
            Optional<String> reason = store.reason(error);
            if (reason.isPresent()) {
                return reason;
            }
        }
        return Optional.empty();
    }

    public static String of(Throwable error) {
        Optional<String> store = ofStore(error);
        if (store.isPresent()) {
            return store.get();
        }
        String message = error instanceof BroadcastException refusal ? refusal.mentionedMessage() : error.getMessage();
        if (message == null || message.isBlank()) {
            return error.getClass().getSimpleName();
        }
        return message.lines().findFirst().orElse(message);
    }
}
