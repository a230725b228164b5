package dev.tensorbroadcast.job.base;

/** The one line of an exception a user is shown as the reason: its message's first line, or its type. */
public final class Reasons {
    private Reasons() {}

    public static String of(Throwable error) {
        String message = error.getMessage();
        if (message == null || message.isBlank()) {
            return error.getClass().getSimpleName();
        }
        return message.lines().findFirst().orElse(message);
    }
}
