package dev.tensorbroadcast.job.base;

import static java.util.Objects.requireNonNull;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.spark.TaskKilledException;

/**
 * The Spark tasks running in this JVM, by the job group of their job: on a local master the driver's own, which it
 * stops and waits for when their job fails or is interrupted, before it cleans up the output. Spark cannot do that
 * for it there: an interrupted job's context stops its executor without stopping the tasks, which run on in daemon
 * threads until the JVM halts, and a killed task only stops at its next check ({@link TaskStop}). A task enters its
 * group before it does anything and leaves it when it returns; once the group is stopped, a task still entering is
 * refused and a running one stops at its next check. A stopped group stays stopped for the JVM's life (one small entry
 * per failed job), so that a task Spark launched before the stop but started after it never writes. On an executor of
 * a cluster, nobody stops a group: its tasks enter and leave, and Spark's kill stops them.
 */
public final class TaskGroups {
    /** Guarded by itself. */
    private static final Map<String, Group> GROUPS = new HashMap<>();

    private static final ThreadLocal<Group> CURRENT = new ThreadLocal<>();

    private TaskGroups() {}

    private static final class Group {
        private final String name;
        /** Guarded by {@link #GROUPS}. */
        private int running;

        private volatile boolean stopped;

        Group(String name) {
            this.name = name;
        }
    }

    /** One task's place in its group, left when the task returns. */
    public static final class Entry implements AutoCloseable {
        private final Group group;

        private Entry(Group group) {
            this.group = group;
        }

        @Override
        public void close() {
            CURRENT.remove();
            synchronized (GROUPS) {
                group.running--;
                if (group.running == 0 && !group.stopped) {
                    GROUPS.remove(group.name);
                }
                GROUPS.notifyAll();
            }
        }
    }

    /**
     * The calling thread's task enters {@code group}; throws Spark's {@link TaskKilledException} when the group was
     * stopped, before the task has done anything.
     */
    public static Entry enter(String group) {
        requireNonNull(group, "group is null");
        Group entered;
        synchronized (GROUPS) {
            entered = GROUPS.computeIfAbsent(group, Group::new);
            if (entered.stopped) {
                throw new TaskKilledException("its job failed or was interrupted before the task started");
            }
            entered.running++;
        }
        CURRENT.set(entered);
        return new Entry(entered);
    }

    /** Whether the calling thread's task belongs to a group that was stopped. */
    public static boolean stopping() {
        Group group = CURRENT.get();
        return group != null && group.stopped;
    }

    /**
     * Stops {@code group}: no task of it starts any more in this JVM, and the running ones stop at their next check.
     */
    public static void stop(String group) {
        requireNonNull(group, "group is null");
        synchronized (GROUPS) {
            GROUPS.computeIfAbsent(group, Group::new).stopped = true;
        }
    }

    /**
     * Waits until no task of {@code group} runs in this JVM, or until {@code deadline} (of {@link System#nanoTime});
     * returns how many still run. An interruption ends the wait early and is kept on the thread.
     */
    public static int await(String group, long deadline) {
        requireNonNull(group, "group is null");
        synchronized (GROUPS) {
            while (true) {
                Group waited = GROUPS.get(group);
                int running = waited == null ? 0 : waited.running;
                long left = deadline - System.nanoTime();
                if (running == 0 || left <= 0) {
                    return running;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(GROUPS, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return running;
                }
            }
        }
    }
}
