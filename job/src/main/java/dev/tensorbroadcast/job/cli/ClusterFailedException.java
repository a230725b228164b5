package dev.tensorbroadcast.job.cli;

/** The local cluster could not be started or stopped, or stopped by itself: the message names the log to read. */
final class ClusterFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ClusterFailedException(String message) {
        super(message);
    }

    ClusterFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
