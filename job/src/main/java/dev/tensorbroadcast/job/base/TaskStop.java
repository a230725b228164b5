package dev.tensorbroadcast.job.base;

import java.util.concurrent.CancellationException;
import org.apache.spark.TaskContext;
import org.apache.spark.TaskKilledException;

/**
 * Where a task's loops look whether it was stopped, between one chunk or batch and the next, so that a stopped task
 * ends within a moment rather than at the end of its partition: a Spark task that Spark killed (its job cancelled,
 * a speculative copy that lost) throws Spark's {@code TaskKilledException}, as Spark's own iterators do, and so does a
 * task of this JVM whose group its driver stopped ({@link TaskGroups}: a local master's job that failed or was
 * interrupted, whose stopped context kills nothing); a task the driver runs on a thread of its own pool (a job without
 * Spark) throws once its thread was interrupted, which the pool does on the job's first failure and on a signal.
 */
public final class TaskStop {
    private TaskStop() {}

    /** Throws when the running task was stopped; returns at once otherwise. */
    public static void check() {
        TaskContext task = TaskContext.get();
        if (task != null) {
            task.killTaskIfInterrupted();
            if (TaskGroups.stopping()) {
                throw new TaskKilledException("its job failed or was interrupted");
            }
        } else if (Thread.currentThread().isInterrupted()) {
            throw new CancellationException("the task was stopped: the job failed or was cancelled");
        }
    }
}
