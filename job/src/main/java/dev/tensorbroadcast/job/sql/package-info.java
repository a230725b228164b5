/**
 * The <b>Spark data source</b> {@code tensorbroadcast}: a broadcast as a table that {@code spark.read}, SQL and any
 * Spark client reads, each planner partition an input partition filled batch by batch by the copy kernel into Arrow
 * vectors that Spark reads in place; a dataset of ours read back by its manifest ({@code load(dir)}), each part file
 * an input partition; a DataFrame written as a dataset through our writers ({@code df.write...save(dir)}); and
 * the SQL functions {@code tensor_broadcast_to} and {@code tensor_shape}
 * ({@link dev.tensorbroadcast.job.sql.TensorFunctions}).
 * It plans and reads through the planner, {@code arrowio}, {@link dev.tensorbroadcast.job.source} and
 * {@link dev.tensorbroadcast.job.dataset}.
 */
package dev.tensorbroadcast.job.sql;
