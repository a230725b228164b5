/**
 * The <b>sink</b> part of the pipeline, as the job sees it: how files are written
 * ({@link dev.tensorbroadcast.job.sink.FileOptions}: format, codec and level, row-group size, encoding) and the
 * checksumming streams each written file goes through. The Arrow IPC and Parquet writers are in {@code arrowio}; the
 * null sink is {@code job.spark.DiscardJob}.
 */
package dev.tensorbroadcast.job.sink;
