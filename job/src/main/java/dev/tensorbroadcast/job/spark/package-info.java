/**
 * The pipeline on Spark: the jobs that run a request's tasks ({@link dev.tensorbroadcast.job.spark.DatasetJob} for
 * datasets, {@link dev.tensorbroadcast.job.spark.DiscardJob} for the null sink,
 * {@link dev.tensorbroadcast.job.spark.ReduceJob} for sums), the task that runs the kernel into the writers
 * ({@link dev.tensorbroadcast.job.spark.PartitionTask}), progress, and the DataFrame API
 * ({@link dev.tensorbroadcast.job.spark.ColumnExpansion}, {@link dev.tensorbroadcast.job.spark.RowDatasets}).
 */
package dev.tensorbroadcast.job.spark;
