package dev.tensorbroadcast.job.base;

import dev.tensorbroadcast.planner.BroadcastException;

/** An output location that must not be written: refused before any work starts, with nothing written. */
public final class OutputException extends BroadcastException {
    private static final long serialVersionUID = 1L;

    public OutputException(String message) {
        super(message);
    }

    @Override
    public String kind() {
        return "output";
    }
}
