package dev.tensorbroadcast.job;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.job.base.JobProgress;

/** Hands the API's {@link Progress} to the pipeline, which hears its jobs through {@link JobProgress}. */
final class ProgressBridge {
    private ProgressBridge() {}

    static JobProgress of(Progress progress) {
        requireNonNull(progress, "progress is null");
        if (progress == Progress.NONE) {
            return JobProgress.NONE;
        }
        return new JobProgress() {
            @Override
            public void started(String description, long partitions, long bytes) {
                progress.started(description, partitions, bytes);
            }

            @Override
            public void advanced(long partitionsDone, long valueBytes) {
                progress.advanced(partitionsDone, valueBytes);
            }

            @Override
            public void finished() {
                progress.finished();
            }
        };
    }
}
