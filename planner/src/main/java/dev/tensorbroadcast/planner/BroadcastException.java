package dev.tensorbroadcast.planner;

/**
 * Base of every error the planner reports. Its message is one line meant for the user: it names the dialect, the
 * shapes, the offending value and what would have been accepted.
 */
public abstract class BroadcastException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    protected BroadcastException(String message) {
        super(message);
    }

    /** A stable, machine-readable name of the error's kind, as printed in JSON by the CLI. */
    public abstract String kind();
}
