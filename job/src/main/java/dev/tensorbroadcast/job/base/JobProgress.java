package dev.tensorbroadcast.job.base;

/** Hears how far a dataset's job is, from Spark's listener events; called on Spark's listener thread. */
public interface JobProgress {
    JobProgress NONE = new JobProgress() {
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
