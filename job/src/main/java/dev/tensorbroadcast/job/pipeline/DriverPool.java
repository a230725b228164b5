package dev.tensorbroadcast.job.pipeline;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.job.base.Reasons;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * The driver's tasks on threads of this JVM (what {@code local[*]} is, without Spark around them): at most
 * {@code threads} at once, taken in partition order as threads come free, their results handed to the caller's thread
 * in partition order.
 * At most {@link #WINDOW_PER_THREAD} tasks per thread are started ahead of the first result not yet handed over, so the
 * results held at once stay bounded however many tasks there are. Besides the running tasks, one per thread waits in
 * the pool's queue, so that a thread that finishes a task starts the next one at once instead of waiting for the
 * caller's thread to be scheduled (on a loaded machine that wait left the threads idle 5-10% of a reduce's time,
 * docs/benchmarks.md, issue 28). The first failure (or a cancellation, which the caller's thread checks every
 * {@link #POLL_MILLIS} ms) starts no further task, a queued one included, and interrupts the running ones (their loops
 * check {@link dev.tensorbroadcast.job.base.TaskStop}); it is thrown only once every task has stopped, so that what the
 * caller then undoes (a commit's abort) never races a task still writing.
 */
final class DriverPool {
    /** The names of the pool's threads, followed by a number. */
    static final String THREAD_NAME = "tensor-broadcast-task-";
    /** How often the waiting thread looks at the cancellation and reports progress, in milliseconds. */
    static final long POLL_MILLIS = 50;
    /**
     * Tasks started ahead of the next result handed over, per thread: the running one, the one queued behind it, and
     * one finished early. With two (no slack once a task is queued behind each running one) a task slowed by a loaded
     * machine held the other threads idle 4-8% of a reduce's time at a load of 6-7; with three, 3-6%
     * (docs/benchmarks.md, issue 28).
     */
    static final int WINDOW_PER_THREAD = 3;

    private static final AtomicInteger THREAD_NUMBERS = new AtomicInteger();
    /** What a queued task returns when it did not run: a task had failed, or the job was cancelled. */
    private static final Object NOT_RUN = new Object();

    /** One task: the result of partition {@code index}. */
    interface Task<R> {
        R call(int index) throws Exception;
    }

    /** Hears the results in partition order, in the calling thread. */
    interface Results<R> {
        void accept(int index, R result) throws Exception;
    }

    /** Hears, in the calling thread, each finished task and every poll while tasks run. */
    interface Progress {
        void finished(int tasksDone);
    }

    private DriverPool() {}

    /** The threads of a pool for {@code tasks} on this machine: one per core, no more than there are tasks. */
    static int threads(int tasks) {
        return Math.max(1, Math.min(tasks, Runtime.getRuntime().availableProcessors()));
    }

    /**
     * Runs tasks {@code 0 .. count - 1} on {@code threads} threads; {@code results} hears each result in partition
     * order, {@code progress} the finished count. Throws the first task's failure (its cause, unwrapped), or a
     * {@link CancellationException} once {@code cancelled} says so, after every started task has stopped.
     */
    static <R> void run(
            int count,
            int threads,
            BooleanSupplier cancelled,
            Task<R> task,
            Results<? super R> results,
            Progress progress)
            throws Exception {
        requireNonNull(cancelled, "cancelled is null");
        requireNonNull(task, "task is null");
        requireNonNull(results, "results is null");
        requireNonNull(progress, "progress is null");
        if (count == 0) {
            return;
        }
        if (threads < 1) {
            throw new IllegalArgumentException("Cannot run the driver's tasks: " + threads + " threads");
        }
        int width = Math.min(threads, count);
        ExecutorService pool = Executors.newFixedThreadPool(width, DriverPool::thread);
        BlockingQueue<Integer> done = new LinkedBlockingQueue<>();
        Map<Integer, Future<Object>> running = new HashMap<>();
        // set by a failing task before its end is reported, and by this thread when it sees a cancellation: a queued
        // task that sees it does not run
        AtomicBoolean stopped = new AtomicBoolean();
        long window = (long) width * WINDOW_PER_THREAD;
        int started = 0;
        int handed = 0;
        int finished = 0;
        try {
            while (handed < count) {
                // a running task per thread and one queued behind each
                while (started < count && started < handed + window && started - finished < 2 * width) {
                    int index = started++;
                    running.put(index, pool.submit(() -> {
                        try {
                            if (stopped.get()) {
                                return NOT_RUN;
                            }
                            return task.call(index);
                        } catch (Throwable failure) {
                            stopped.set(true);
                            throw failure;
                        } finally {
                            done.add(index);
                        }
                    }));
                }
                Integer next = done.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
                if (cancelled.getAsBoolean()) {
                    stopped.set(true);
                    throw new CancellationException("the job was cancelled: the process is shutting down");
                }
                if (next == null) {
                    progress.finished(finished);
                    continue;
                }
                finished++;
                // a failure is thrown as soon as it is seen, whatever its partition: no further task starts; a task
                // already handed over (it finished before its turn was looked at) has nothing more to say
                Future<Object> future = running.get(next);
                if (future != null) {
                    resultOf(future);
                }
                progress.finished(finished);
                // a task that did not run is never handed over: the failure that stopped it is on its way
                while (handed < count
                        && running.containsKey(handed)
                        && running.get(handed).isDone()
                        && resultOf(running.get(handed)) != NOT_RUN) {
                    @SuppressWarnings("unchecked")
                    R result = (R) resultOf(running.remove(handed));
                    results.accept(handed, result);
                    handed++;
                }
            }
            // the last tasks may have been handed over before their ends were taken from the queue
            progress.finished(count);
        } finally {
            stop(pool);
        }
    }

    private static <R> R resultOf(Future<R> future) throws Exception {
        try {
            return future.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception exception) {
                throw exception;
            }
            if (cause instanceof VirtualMachineError fatal) {
                throw fatal;
            }
            // an Error a Spark task would fail with, not a fatal one (Hadoop's FSError of a full disk): the job fails
            throw new ExecutionException(Reasons.of(cause), cause);
        }
    }

    /**
     * Interrupts the running tasks and waits for every one of them to stop, however long: a task that is still
     * writing when the caller aborts the commit would leave a file behind it.
     */
    private static void stop(ExecutorService pool) {
        pool.shutdownNow();
        boolean interrupted = false;
        while (true) {
            try {
                if (pool.awaitTermination(1, TimeUnit.SECONDS)) {
                    break;
                }
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static Thread thread(Runnable work) {
        Thread thread = new Thread(work, THREAD_NAME + THREAD_NUMBERS.incrementAndGet());
        // the JVM may exit under a task as it does under Spark's executor threads (a signal's halt)
        thread.setDaemon(true);
        return thread;
    }
}
