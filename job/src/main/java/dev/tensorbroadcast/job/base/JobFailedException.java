package dev.tensorbroadcast.job.base;

/**
 * The Spark job failed after it started (a task failed on every attempt, an executor was lost, the output file system
 * failed). The output commit was aborted: the directory holds no {@code _SUCCESS} and no manifest.
 */
public final class JobFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public JobFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
