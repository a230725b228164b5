/**
 * The <b>sink</b> part of the pipeline, as the job sees it: how files are written
 * ({@link dev.tensorbroadcast.job.sink.FileOptions}: the format and arrow-io's write settings) and the
 * checksumming streams each written file goes through, and the header of a {@code .npy}
 * ({@link dev.tensorbroadcast.job.sink.NpyWriter}). The Arrow IPC and Parquet writers are in {@code arrowio}; the
 * null sink is {@code job.pipeline.DiscardJob}.
 */
package dev.tensorbroadcast.job.sink;
