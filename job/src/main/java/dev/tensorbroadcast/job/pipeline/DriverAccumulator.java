package dev.tensorbroadcast.job.pipeline;

import org.apache.spark.util.LongAccumulator;

/**
 * The accumulator of a job whose tasks run on the driver's pool ({@link DriverPool}): its tasks share this one object
 * and add to it from several threads at once, where each Spark task adds to its own copy and the driver merges them.
 * Spark's own adds two fields without a lock, so concurrent adds would be lost; these hold the object's lock, taken
 * once per batch or chunk of a task, never per value.
 */
final class DriverAccumulator extends LongAccumulator {
    private static final long serialVersionUID = 1L;

    @Override
    public synchronized void add(long value) {
        super.add(value);
    }

    @Override
    public synchronized void add(Long value) {
        super.add(value);
    }

    @Override
    public synchronized Long value() {
        return super.value();
    }

    @Override
    public synchronized long sum() {
        return super.sum();
    }

    @Override
    public synchronized long count() {
        return super.count();
    }
}
