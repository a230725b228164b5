package dev.tensorbroadcast.job.base;

import dev.tensorbroadcast.planner.BroadcastException;
import java.util.Optional;

/**
 * The one line of an exception a user is shown as the reason: an object store's refusal in a few words
 * ({@link StoreFailures}), else its message's first line, or its type. A refusal's
 * parameter mentions are kept, so the message that quotes it names them as its own reader (Java or CLI) does.
 */
public final class Reasons {
    private Reasons() {}

    public static String of(Throwable error) {
        Optional<String> store = StoreFailures.reason(error);
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
