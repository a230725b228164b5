package dev.tensorbroadcast.localcluster;

/** A local cluster could not be started, reached or stopped; the message names the log to read. */
public final class LocalClusterException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public LocalClusterException(String message) {
        super(message);
    }

    public LocalClusterException(String message, Throwable cause) {
        super(message, cause);
    }
}
