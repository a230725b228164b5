package dev.tensorbroadcast.job.cli;

import java.util.function.Predicate;

/**
 * The moments of a write a fault of the soak is aimed at, one line each. A point is a state of the output that a
 * watcher polling the store's listing sees (what a killed writer would leave is decided by what is there), or, for
 * {@link #TASK_WRITTEN}, a moment inside a task that {@code InjectedFailure} reaches. A new point, such as a step of
 * a commit record another hook exposes, is one more line: what the listing shows then, which stores and which runs
 * (a new output or an {@code --overwrite}) have it, and how long each task sleeps so that the job lasts long enough
 * to be caught there.
 *
 * <p>Polling is not exact: a point lasting milliseconds (the job's commit on a local disk) is often seen late, or
 * missed when the run ends first. The soak therefore reports where each fault landed ({@link SoakRun#landed()}: the
 * last point whose state the listing showed before the fault) beside where it was aimed.
 */
enum SoakPoint {
    /** While the JVM, the request's checks and Spark start, and the lock is taken: a delay from the start, no state. */
    START(Stores.ALL, Runs.BOTH, 0, view -> true),
    /**
     * The lock's owner line written under its staged name, not yet renamed into place (HDFS, where a create shows the
     * file before its bytes): too short to be seen by polling, so the driver pauses there ({@link #pausesAt()}) and
     * the fault comes once it says so.
     */
    LOCK_STAGED(Stores.HDFS, Runs.BOTH, 0, view -> false),
    /** The output's lock is there, before anything else is touched. */
    LOCKED(Stores.ALL, Runs.BOTH, 200, view -> view.has(SoakListing.LOCK) && !view.tasksSeen()),
    /** An {@code --overwrite}'s old dataset set aside under {@code _tensor-broadcast.previous} (not on S3). */
    SET_ASIDE(
            Stores.RENAMING,
            Runs.OVERWRITE,
            200,
            view -> view.hasPrefix(SoakListing.PREVIOUS + "/") && !view.tasksSeen()),
    /** Tasks writing into the job's staging: {@code _temporary/}, or S3A's {@code __magic_job-*} prefix. */
    TASKS(Stores.ALL, Runs.BOTH, 300, SoakListing.View::staging),
    /** A task's file committed into the job's attempt ({@code _temporary/0/task_*}), others still running. */
    TASK_COMMITTED(Stores.RENAMING, Runs.BOTH, 300, SoakListing.View::committedTask),
    /** A task's file written and not committed: the task fails there ({@code InjectedFailure}'s failPartition). */
    TASK_WRITTEN(Stores.ALL, Runs.BOTH, 0, view -> false),
    /** The job's commit: new part files at the top, no manifest and no {@code _SUCCESS} yet. */
    JOB_COMMIT(
            Stores.ALL,
            Runs.BOTH,
            0,
            view -> view.tasksSeen() && view.topPartFile() && !view.has(SoakListing.SUCCESS) && !view.manifest()),
    /** The manifest written (or being renamed from its staged name), {@code _SUCCESS} not yet. */
    MANIFEST(
            Stores.ALL,
            Runs.BOTH,
            0,
            view -> view.tasksSeen() && !view.staging() && view.manifest() && !view.has(SoakListing.SUCCESS)),
    /**
     * {@code _SUCCESS} written, the lock (and an overwrite's set-aside dataset) not yet removed. The staging is gone
     * by then: on S3 an overwrite's old {@code _SUCCESS} stays while the tasks run.
     */
    SUCCESS(
            Stores.ALL,
            Runs.BOTH,
            0,
            view -> view.tasksSeen() && !view.staging() && view.has(SoakListing.SUCCESS) && view.has(SoakListing.LOCK)),
    /** The write done, lock removed: the run reports and exits (a signal now must not undo anything). */
    DONE(
            Stores.ALL,
            Runs.BOTH,
            0,
            view -> view.tasksSeen()
                    && !view.staging()
                    && view.has(SoakListing.SUCCESS)
                    && !view.has(SoakListing.LOCK));

    /** Which stores a point exists on. */
    enum Stores {
        ALL,
        /** Local disk and HDFS, whose commit renames: S3 sets nothing aside and commits tasks in messages. */
        RENAMING,
        /** HDFS only. */
        HDFS;

        boolean has(SoakStore.Kind kind) {
            return switch (this) {
                case ALL -> true;
                case RENAMING -> kind != SoakStore.Kind.S3;
                case HDFS -> kind == SoakStore.Kind.HDFS;
            };
        }
    }

    /** Which runs a point exists in. */
    enum Runs {
        BOTH,
        OVERWRITE;

        boolean has(boolean overwrite) {
            return this == BOTH || overwrite;
        }
    }

    private final Stores stores;
    private final Runs runs;
    private final int taskDelayMillis;
    private final Predicate<SoakListing.View> reached;

    SoakPoint(Stores stores, Runs runs, int taskDelayMillis, Predicate<SoakListing.View> reached) {
        this.stores = stores;
        this.runs = runs;
        this.taskDelayMillis = taskDelayMillis;
        this.reached = reached;
    }

    boolean applies(SoakStore.Kind store, boolean overwrite) {
        return stores.has(store) && runs.has(overwrite);
    }

    /** How long each task sleeps first, so the job's phases last long enough to be seen; 0 for none. */
    int taskDelayMillis() {
        return taskDelayMillis;
    }

    boolean reached(SoakListing.View view) {
        return reached.test(view);
    }

    /**
     * Whether the soak waits for this point, in the listing or for the driver's pause; {@link #TASK_WRITTEN} is
     * reached inside the task.
     */
    boolean watched() {
        return this != TASK_WRITTEN;
    }

    /**
     * The driver's fault point ({@code commit.FaultPoint}) this point is, where the driver pauses and prints so
     * ({@code -Dtensorbroadcast.test.pauseAt}) until the fault comes; empty for a point seen in the listing.
     */
    java.util.Optional<String> pausesAt() {
        return this == LOCK_STAGED ? java.util.Optional.of("lock.staged") : java.util.Optional.empty();
    }

    /** The last point, in the order of a write, whose state {@code view} shows; START when none. */
    static SoakPoint seen(SoakListing.View view) {
        SoakPoint[] points = values();
        for (int i = points.length - 1; i > 0; i--) {
            if (points[i].watched() && points[i].pausesAt().isEmpty() && points[i].reached(view)) {
                return points[i];
            }
        }
        return START;
    }
}
