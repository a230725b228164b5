package dev.tensorbroadcast.job.base;

import dev.tensorbroadcast.planner.BroadcastException;

/** An input that does not exist or cannot be opened: refused before any work starts. */
public final class InputException extends BroadcastException {
    private static final long serialVersionUID = 1L;

    public InputException(String message) {
        super(message);
    }

    @Override
    public String kind() {
        return "input";
    }
}
