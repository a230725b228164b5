package dev.tensorbroadcast.job;

import dev.tensorbroadcast.planner.Param;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.TooLargeException;

/**
 * Refuses a task count the driver cannot hold: Spark keeps state for every task of a job on the driver's heap (its
 * task set, its result), about {@link #DRIVER_BYTES_PER_TASK} each, so ten million tasks sit at the heap's limit in
 * full GC instead of failing. The bound is the heap over that; the suggestion also keeps partitions at least
 * {@link #USEFUL_PARTITION_BYTES}, below which more tasks gain nothing.
 */
final class TaskCountGuard {
    static final long DRIVER_BYTES_PER_TASK = 2L << 10;
    static final long USEFUL_PARTITION_BYTES = 1L << 20;

    private TaskCountGuard() {}

    static void check(long tasks, long bytes) {
        check(tasks, bytes, Runtime.getRuntime().maxMemory());
    }

    static void check(long tasks, long bytes, long heapBytes) {
        long bound = Math.max(1, heapBytes / DRIVER_BYTES_PER_TASK);
        if (tasks <= bound) {
            return;
        }
        long useful = Math.max(1, Math.min(bound, (bytes + USEFUL_PARTITION_BYTES - 1) / USEFUL_PARTITION_BYTES));
        throw new TooLargeException("Cannot run " + tasks + " tasks: the driver keeps about "
                + ByteCounts.format(DRIVER_BYTES_PER_TASK) + " per task, and its heap of "
                + ByteCounts.format(heapBytes)
                + " holds about " + bound + "; give " + Param.PARTITIONS.given(useful + "", useful + "")
                + " (partitions of "
                + ByteCounts.format(Math.max(1, bytes / useful)) + "), or a larger heap (TENSOR_BROADCAST_HEAP)");
    }

    static void check(PartitionPlan plan) {
        check(plan.partitionCount(), plan.bytes());
    }
}
