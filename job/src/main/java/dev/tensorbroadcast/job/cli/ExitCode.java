package dev.tensorbroadcast.job.cli;

/** The exit codes scripts rely on. */
final class ExitCode {
    static final int OK = 0;
    /** A bug or an environment failure: not the user's request. */
    static final int INTERNAL_ERROR = 1;
    /**
     * {@code inspect} found an incomplete dataset, or {@code verify} found problems: the command ran and its report
     * (on stdout) says what is wrong. Shares 1 with {@link #INTERNAL_ERROR}; the report tells them apart.
     */
    static final int DATASET_PROBLEMS = 1;
    /** The request was refused: a usage error or a broadcast the dialect does not allow. */
    static final int REFUSED = 2;
    /** {@code cluster status} found no running local cluster. */
    static final int NOT_RUNNING = 3;
    /**
     * Ctrl-C: what a shell reports for SIGINT. The process really ends with the signal's own code (130, or 143 for
     * SIGTERM), which the JVM sets once a signal has begun its shutdown.
     */
    static final int INTERRUPTED = 130;

    private ExitCode() {}
}
