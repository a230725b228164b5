package dev.tensorbroadcast.job.spark;

import org.apache.spark.TaskContext;

/**
 * A test hook for the commit protocol: Spark local properties (set on the driver's thread with
 * {@code SparkContext.setLocalProperty}, seen by that thread's tasks) make a task fail after its file is written and
 * before it is committed. Without them nothing happens.
 */
final class InjectedFailure {
    /** The partition whose task fails. */
    static final String PARTITION = "tensorbroadcast.test.failPartition";
    /** How many attempts of it fail: a number, or {@code all}. */
    static final String ATTEMPTS = "tensorbroadcast.test.failAttempts";

    private InjectedFailure() {}

    static void maybeFail(TaskContext context, long partition) {
        String failing = context.getLocalProperty(PARTITION);
        if (failing == null || Long.parseLong(failing) != partition) {
            return;
        }
        String attempts = context.getLocalProperty(ATTEMPTS);
        if ("all".equals(attempts) || context.attemptNumber() < Integer.parseInt(attempts == null ? "1" : attempts)) {
            throw new IllegalStateException("injected failure in partition " + partition + ", attempt "
                    + context.attemptNumber());
        }
    }
}
