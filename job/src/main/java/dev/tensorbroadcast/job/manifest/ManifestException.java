package dev.tensorbroadcast.job.manifest;

import dev.tensorbroadcast.planner.BroadcastException;

/** A manifest that is missing, malformed, or names paths outside its dataset. */
public final class ManifestException extends BroadcastException {
    private static final long serialVersionUID = 1L;

    public ManifestException(String message) {
        super(message);
    }

    @Override
    public String kind() {
        return "manifest";
    }
}
