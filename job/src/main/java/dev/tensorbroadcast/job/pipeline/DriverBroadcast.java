package dev.tensorbroadcast.job.pipeline;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.job.base.Broadcasts;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.broadcast.Broadcast;

/**
 * A value "shipped" to tasks that run in the driver (see {@link JobEngine#driver}): the driver's own object, behind
 * Spark's {@link Broadcast} so that the tasks read it the way they read a broadcast variable. Never serialized: the
 * driver's tasks are called, not shipped.
 */
final class DriverBroadcast<T> extends Broadcast<T> implements Broadcasts.Local {
    private static final long serialVersionUID = 1L;
    /** Ids apart from Spark's (which count up from 0), so that a log line never confuses the two. */
    private static final AtomicLong IDS = new AtomicLong(Long.MIN_VALUE);

    private transient T value;

    DriverBroadcast(T value) {
        // Spark's Broadcast takes a ClassTag for its Scala callers and never reads it (its constructor keeps only the
        // id): none spares a job without Spark Scala's ClassTag object, whose start cost 20-30 ms before the first
        // task (docs/benchmarks.md, issue 28: the reduce job's time)
        super(IDS.getAndIncrement(), null);
        this.value = requireNonNull(value, "value is null");
    }

    @Override
    public T getValue() {
        T held = value;
        if (held == null) {
            throw new IllegalStateException(
                    "Cannot read the driver's value " + id() + ": it was released when its" + " job ended");
        }
        return held;
    }

    @Override
    public void release() {
        value = null;
    }

    @Override
    public void doUnpersist(boolean blocking) {}

    @Override
    public void doDestroy(boolean blocking) {
        value = null;
    }

    private void writeObject(java.io.ObjectOutputStream out) throws java.io.NotSerializableException {
        throw new java.io.NotSerializableException("a driver's value is not shipped to executors");
    }
}
