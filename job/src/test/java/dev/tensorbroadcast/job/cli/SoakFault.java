package dev.tensorbroadcast.job.cli;

import java.util.List;

/**
 * The faults of the soak: what is done to a run when it reaches its point. A fault that kills a process without
 * letting it clean up ({@link #killsWithoutCleanUp()}) may leave what the docs say a killed driver leaves (its lock,
 * its staging, an overwrite's old dataset set aside); every other fault must leave the old dataset, the new one, or
 * nothing, and nothing else.
 */
enum SoakFault {
    /** SIGKILL of the command line's JVM: the driver, and the embedded engine's tasks with it. */
    DRIVER_KILL(true),
    /** Ctrl-C. */
    DRIVER_INT(false),
    /** SIGTERM. */
    DRIVER_TERM(false),
    /** SIGKILL of the S3 server; started again (with the objects it kept) before the oracle looks. */
    SERVER_KILL(true),
    /** SIGKILL of one executor JVM of the standalone cluster: Spark retries its tasks elsewhere. */
    EXECUTOR_KILL(false),
    /** A task fails after writing its file, before its commit, every attempt (InjectedFailure): the job fails. */
    TASK_FAILURE(false),
    /**
     * The output's disk fills up (a small tmpfs, {@link SoakStore#fill()}), and is emptied once the run ended: the run
     * fails with no space left, and must leave the old dataset, or, where there was none, only names of ours that
     * {@code --overwrite} replaces (docs/reliability.md, DiskFullTest).
     */
    DISK_FULL(false);

    private final boolean killsWithoutCleanUp;

    SoakFault(boolean killsWithoutCleanUp) {
        this.killsWithoutCleanUp = killsWithoutCleanUp;
    }

    boolean killsWithoutCleanUp() {
        return killsWithoutCleanUp;
    }

    boolean applies(SoakEngine engine, SoakStore store) {
        return switch (this) {
            case SERVER_KILL -> store.serverPid().isPresent();
            case EXECUTOR_KILL -> engine == SoakEngine.CLUSTER;
            case DISK_FULL -> store.unfillable().isEmpty();
            default -> true;
        };
    }

    /** The points this fault can be aimed at. */
    List<SoakPoint> points() {
        return switch (this) {
            case TASK_FAILURE -> List.of(SoakPoint.TASK_WRITTEN);
            case EXECUTOR_KILL -> List.of(SoakPoint.TASKS, SoakPoint.TASK_COMMITTED);
            default ->
                List.of(SoakPoint.values()).stream().filter(SoakPoint::watched).toList();
        };
    }
}
