package dev.tensorbroadcast.job;

/**
 * Hears how far a run of {@link PreparedBroadcast} or {@link PreparedReduce} is, from Spark's listener events; called
 * on Spark's listener thread. The API's own listener: the pipeline's is not part of the API, and this one is handed to
 * it through a bridge.
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
