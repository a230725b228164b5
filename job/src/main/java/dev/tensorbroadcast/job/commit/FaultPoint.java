package dev.tensorbroadcast.job.commit;

import java.io.PrintStream;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;

/**
 * The named moments of a job's commit in the driver, in their order, and of its taking the output (the lock, an
 * {@code --overwrite}'s set-aside), where a test (or the fault soak) stops the
 * process on purpose: the tasks' side has {@code pipeline.InjectedFailure}. Without a setting nothing happens. The
 * settings are JVM system properties ({@code -Dtensorbroadcast.test.pauseAt=commit.markers-taken}, what a test that
 * starts the command line as a process of its own passes), or the job's Hadoop settings of the same names:
 * <ul>
 *   <li>{@value #PAUSE_AT}: the point where the driver prints {@code tensor-broadcast test: paused at <point>} on
 *       the standard error it started with and waits, {@value #PAUSE_MILLIS} ms (60 s unless set) or until the JVM
 *       begins to shut down (a signal), then goes on: a test sends its signal when it reads the line.
 *   <li>{@value #HALT_AT}: the point where the JVM halts at once with exit code 137, running no shutdown hook, as
 *       SIGKILL would stop it there.
 * </ul>
 * docs/reliability.md lists the points and what a fault at each leaves.
 */
public enum FaultPoint {
    /** The commit window is entered (tasks all committed); nothing of the output changed yet. */
    COMMIT_START("commit.start"),
    /** The commit record is written (stores that replace a dataset in place, S3); the old dataset is still whole. */
    COMMIT_RECORDED("commit.recorded"),
    /** The old dataset's markers ({@code _SUCCESS}, the manifest) are gone; no new file is visible yet. */
    COMMIT_MARKERS_TAKEN("commit.markers-taken"),
    /** The committer's job commit is done: the new files are visible (uploads completed, or renamed). */
    COMMIT_FILES_COMMITTED("commit.files-committed"),
    /** What an in-place overwrite left of the old dataset is deleted, and the job's staging. */
    COMMIT_CLEANED("commit.cleaned"),
    /** The new manifest is written; {@code _SUCCESS} is not. */
    COMMIT_MANIFEST_WRITTEN("commit.manifest-written"),
    /** {@code _SUCCESS} is written; the commit record (if any) is not yet deleted. */
    COMMIT_SUCCESS_WRITTEN("commit.success-written"),
    /**
     * The commit is done: {@code _SUCCESS} written, the commit record (if any) deleted; the lock not yet removed, nor
     * what an {@code --overwrite} set aside.
     */
    COMMIT_DONE("commit.done"),
    /**
     * The lock's owner line written whole under a staged name, not yet renamed into place (stores that stage it:
     * HDFS); nothing else of the output touched.
     */
    LOCK_STAGED("lock.staged"),
    /** The output's lock is in place (every store); nothing else of the output touched. */
    LOCK_CREATED("lock.created"),
    /**
     * {@code --overwrite} on a store with renames: the old dataset's first entry (a marker) is moved aside, the rest
     * not yet: the dataset is split between the output and {@code _tensor-broadcast.previous}.
     */
    OVERWRITE_MOVING_ASIDE("overwrite.moving-aside"),
    /** {@code --overwrite} on a store with renames: the old dataset is moved aside, the job not yet started. */
    OVERWRITE_SET_ASIDE("overwrite.set-aside"),
    /**
     * A failed {@code --overwrite} moves the old dataset back: its part files are back in the output, its markers
     * not yet.
     */
    OVERWRITE_MOVING_BACK("overwrite.moving-back");

    /** The point to pause at. */
    public static final String PAUSE_AT = "tensorbroadcast.test.pauseAt";
    /** How long to pause there, in milliseconds. */
    public static final String PAUSE_MILLIS = "tensorbroadcast.test.pauseMillis";
    /** The point to halt at. */
    public static final String HALT_AT = "tensorbroadcast.test.haltAt";

    private static final long DEFAULT_PAUSE_MILLIS = 60_000;
    /** The standard error the JVM started with: a signal's hook may have silenced {@code System.err} since. */
    private static final PrintStream ERR = System.err;

    private final String pointName;

    FaultPoint(String pointName) {
        this.pointName = pointName;
    }

    /** The name a setting gives the point by. */
    public String pointName() {
        return pointName;
    }

    /** The point named {@code name}. */
    public static FaultPoint named(String name) {
        for (FaultPoint point : values()) {
            if (point.pointName.equals(name)) {
                return point;
            }
        }
        throw new IllegalArgumentException("Cannot find fault point '" + name + "': the points are "
                + java.util.Arrays.stream(values()).map(FaultPoint::pointName).toList());
    }

    /** The driver is at this point: pauses or halts there if a setting (system property, or in {@code conf}) says. */
    public void reach(Configuration conf) {
        if (pointName.equals(setting(conf, HALT_AT))) {
            Runtime.getRuntime().halt(137);
        }
        if (pointName.equals(setting(conf, PAUSE_AT))) {
            String millis = setting(conf, PAUSE_MILLIS);
            ERR.println("tensor-broadcast test: paused at " + pointName);
            ERR.flush();
            CommitWindow.awaitShutdown(millis == null ? DEFAULT_PAUSE_MILLIS : Long.parseLong(millis));
        }
    }

    private static String setting(Configuration conf, String name) {
        String property = System.getProperty(name);
        if (property != null) {
            return property.strip().toLowerCase(Locale.ROOT);
        }
        String set = conf == null ? null : conf.get(name);
        return set == null ? null : set.strip().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return pointName;
    }
}
