package dev.tensorbroadcast.job.store;

import java.io.IOException;
import java.util.List;

/**
 * A committer whose committed tasks leave work that only the job's commit makes visible, carried to the driver in
 * the tasks' commit messages rather than saved in the store (S3A's pending uploads: {@code s3.MagicCommitter}).
 */
public interface PendingCommitter {
    /** What the last committed task left, as bytes for its commit message. */
    byte[] committedBytes() throws IOException;

    /** Stages the committed tasks' {@link #committedBytes} for the job's commit, which completes them. */
    void stage(List<byte[]> tasks) throws IOException;

    /**
     * The {@link #stage}d work as bytes from which a later process completes it ({@link Store#completeRecorded}),
     * for the commit record written before the job's commit begins; from then on a failed commit leaves the work it
     * did not complete pending, and reverts nothing, so that the record can still be finished.
     */
    byte[] record() throws IOException;
}
