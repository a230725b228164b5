package dev.tensorbroadcast.job.base;

import dev.tensorbroadcast.planner.BroadcastException;

/** A dataset directory that is missing, is not a dataset, or cannot be used for what was asked. */
public final class DatasetException extends BroadcastException {
    private static final long serialVersionUID = 1L;

    public DatasetException(String message) {
        super(message);
    }

    @Override
    public String kind() {
        return "dataset";
    }
}
