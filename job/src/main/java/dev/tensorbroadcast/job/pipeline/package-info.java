/**
 * The pipeline on Spark: the jobs that run a request's tasks ({@link dev.tensorbroadcast.job.pipeline.DatasetJob} for
 * datasets, {@link dev.tensorbroadcast.job.pipeline.DiscardJob} for the null sink,
 * {@link dev.tensorbroadcast.job.pipeline.ReduceJob} for sums), the task that runs the kernel into the writers
 * ({@link dev.tensorbroadcast.job.pipeline.PartitionTask}), progress, and the DataFrame API
 * ({@link dev.tensorbroadcast.job.pipeline.ColumnExpansion}, {@link dev.tensorbroadcast.job.pipeline.RowDatasets}).
 */
package dev.tensorbroadcast.job.pipeline;
