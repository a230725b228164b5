/**
 * The <b>commit</b> part of the pipeline: whether an output may be written
 * ({@link dev.tensorbroadcast.job.commit.OutputDirectory}), the lock a job holds on it
 * ({@link dev.tensorbroadcast.job.commit.OutputLock}), Spark's commit protocol for our files, and the index of a
 * several-dataset output. The manifest and {@code _SUCCESS} follow in {@code job.pipeline.DatasetJob}, from
 * {@code job.manifest}.
 */
package dev.tensorbroadcast.job.commit;
