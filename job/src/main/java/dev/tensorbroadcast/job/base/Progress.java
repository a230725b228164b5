package dev.tensorbroadcast.job.base;

/**
 * Hears how far a job is: a run of the Java API's {@code PreparedBroadcast} or {@code PreparedReduce}, or the
 * command line's {@code verify}; called on Spark's listener thread, or on the driver's thread that waits for the
 * embedded engine's tasks. One type for the API and the pipeline: the API hands the caller's listener to the jobs as
 * it is, so it lives here, below the pipeline, which may not import the API's package.
 */
public interface Progress {
    /** Hears nothing. */
    Progress NONE = new Progress() {
        @Override
        public void started(String description, long partitions, long bytes) {}

        @Override
        public void advanced(long partitionsDone, long valueBytes) {}

        @Override
        public void finished() {}
    };

    /** Before the first task: the job's description, its partition count and the planned output bytes. */
    void started(String description, long partitions, long bytes);

    /**
     * After every finished task, and when running tasks report: the partitions done and the bytes of values done,
     * running tasks' finished batches included.
     */
    void advanced(long partitionsDone, long valueBytes);

    /** After the last task, or after a failure. */
    void finished();
}
