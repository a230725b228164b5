package dev.tensorbroadcast.job.cli;

/** The exit codes scripts rely on. */
final class ExitCode {
    static final int OK = 0;
    /** A bug or an environment failure: not the user's request. */
    static final int INTERNAL_ERROR = 1;
    /** The request was refused: a usage error or a broadcast the dialect does not allow. */
    static final int REFUSED = 2;

    private ExitCode() {}
}
