package dev.tensorbroadcast.job.spark;

import org.apache.spark.TaskContext;

/**
 * Test hooks for the commit protocol and lost executors: Spark local properties (set on the driver's thread with
 * {@code SparkContext.setLocalProperty}, seen by that thread's tasks) make a task fail after its file is written and
 * before it is committed, or make every task take a while, so an executor can be killed while tasks run. Without
 * them nothing happens.
 */
final class InjectedFailure {
    /** The partition whose task fails. */
    static final String PARTITION = "tensorbroadcast.test.failPartition";
    /** How many attempts of it fail: a number, or {@code all}. */
    static final String ATTEMPTS = "tensorbroadcast.test.failAttempts";

    /** How long each task sleeps before it writes, in milliseconds. */
    static final String TASK_DELAY_MILLIS = "tensorbroadcast.test.taskDelayMillis";

    private InjectedFailure() {}

    static void maybeDelay(TaskContext context) {
        String delay = context.getLocalProperty(TASK_DELAY_MILLIS);
        if (delay == null) {
            return;
        }
        try {
            Thread.sleep(Long.parseLong(delay));
        } catch (InterruptedException e) {
            // a killed task is interrupted: it stops here, as it would while writing
            Thread.currentThread().interrupt();
            throw new IllegalStateException("task interrupted during its injected delay", e);
        }
    }

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
