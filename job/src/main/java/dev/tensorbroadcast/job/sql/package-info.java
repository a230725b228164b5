/**
 * The <b>Spark data source</b> {@code tensorbroadcast}: a broadcast as a table that {@code spark.read}, SQL and any
 * Spark client reads, each planner partition an input partition filled batch by batch by the copy kernel into Arrow
 * vectors that Spark reads in place. It plans and reads through the planner, {@code arrowio} and
 * {@link dev.tensorbroadcast.job.source}; it writes nothing.
 */
package dev.tensorbroadcast.job.sql;
