package dev.tensorbroadcast.job.source;

import org.apache.spark.broadcast.Broadcast;

/**
 * How a job gives its tasks a value the driver holds: a Spark broadcast variable, or, for a job whose tasks run in
 * the driver itself (a job on the embedded default, run on the driver's threads), the driver's own object behind the same interface.
 */
public interface Shipping {
    <T> Broadcast<T> broadcast(T value);
}
