package dev.tensorbroadcast.job.pipeline;

import static java.util.Objects.requireNonNull;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The tasks of one job group that Spark has started and not yet seen end, wherever they run, from the listener's
 * events: what the driver waits for after the group's job failed, before it cleans up the output, since a task
 * Spark killed on an executor goes on until its next check (and then undoes its own attempt) and Spark fails the job
 * without waiting for it. A failed job's end comes before its killed tasks' ends, so the wait is for both: every job
 * of the group ended, and every task of their stages that started ended. Its events come from the listener bus, a
 * moment after the scheduler's: a task launched in the very moment the job failed may be heard of after the wait
 * ended (a task on this JVM is waited for by {@link dev.tensorbroadcast.job.base.TaskGroups} without that gap).
 */
final class RunningTasks extends SparkListener {
    private static final String JOB_GROUP = "spark.jobGroup.id";
    /** How often a wait looks whether the context stopped, which ends the events. */
    private static final long POLL_MILLIS = 100;

    private final String group;
    private final Set<Integer> jobs = new HashSet<>();
    private final Set<Integer> stages = new HashSet<>();
    private final Set<Long> tasks = new HashSet<>();

    RunningTasks(String group) {
        this.group = requireNonNull(group, "group is null");
    }

    @Override
    public synchronized void onJobStart(SparkListenerJobStart jobStart) {
        if (jobStart.properties() != null && group.equals(jobStart.properties().getProperty(JOB_GROUP))) {
            jobs.add(jobStart.jobId());
            for (Object stage : CollectionConverters.asJava(jobStart.stageIds())) {
                stages.add((Integer) stage);
            }
        }
    }

    @Override
    public synchronized void onJobEnd(SparkListenerJobEnd jobEnd) {
        if (jobs.remove(jobEnd.jobId())) {
            notifyAll();
        }
    }

    @Override
    public synchronized void onTaskStart(SparkListenerTaskStart taskStart) {
        if (stages.contains(taskStart.stageId())) {
            tasks.add(taskStart.taskInfo().taskId());
        }
    }

    @Override
    public synchronized void onTaskEnd(SparkListenerTaskEnd taskEnd) {
        if (tasks.remove(taskEnd.taskInfo().taskId())) {
            notifyAll();
        }
    }

    /**
     * Waits until every job of the group has ended and every task of it that started has ended, until
     * {@code deadline} (of {@link System#nanoTime}), or until {@code stopped} says the context stopped and no event
     * will come; returns the tasks still running, at least one while a job has not ended. An interruption ends the
     * wait early and is kept on the thread.
     */
    synchronized int await(long deadline, BooleanSupplier stopped) {
        while (!jobs.isEmpty() || !tasks.isEmpty()) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || stopped.getAsBoolean()) {
                break;
            }
            try {
                wait(Math.max(1, Math.min(POLL_MILLIS, TimeUnit.NANOSECONDS.toMillis(left))));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return jobs.isEmpty() ? tasks.size() : Math.max(1, tasks.size());
    }
}
