package dev.tensorbroadcast.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.job.base.HeardProgress;
import dev.tensorbroadcast.job.base.JobFailedException;
import dev.tensorbroadcast.job.base.TaskStop;
import dev.tensorbroadcast.planner.InvalidRequestException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.LongAccumulator;
import org.junit.jupiter.api.Test;

/** A job whose tasks run on the driver's pool of threads: no Spark context, the same skeleton around them. */
class DriverJobRunTest {
    @Test
    void theTasksRunInPartitionOrderWithTheDriversValuesAndAreHeard() {
        HeardProgress heard = new HeardProgress();
        List<String> released = new ArrayList<>();
        Configuration hadoop = new Configuration(false);
        hadoop.set("tensorbroadcast.test", "the driver's");
        StringBuilder shipped = new StringBuilder("shipped");
        List<String> results = JobRun.tracked(
                        JobEngine.driver(hadoop, () -> false),
                        "three tasks",
                        new JobRun.Tracking(heard, "bytes", 3, 300))
                .run("Cannot write 'x'", run -> {
                    assertThat(run.inDriver()).isTrue();
                    assertThat(run.hadoopConfiguration().get("tensorbroadcast.test"))
                            .isEqualTo("the driver's");
                    Broadcast<StringBuilder> value = run.broadcast(shipped);
                    run.hold(value, broadcast -> released.add("value"));
                    LongAccumulator values = run.values();
                    return run.tasks(3, (Integer index, Iterator<Integer> partition) -> {
                        // a partition holds its own index, as parallelize gives it
                        assertThat(partition.next()).isEqualTo(index);
                        assertThat(value.value()).isSameAs(shipped);
                        values.add(100);
                        return List.of("task " + index).iterator();
                    });
                });
        assertThat(results).containsExactly("task 0", "task 1", "task 2");
        // the pool's tasks finish in any order: what is heard only grows, and ends with the whole
        assertThat(heard.events().get(0)).isEqualTo("started three tasks 3 300");
        assertThat(heard.events()
                        .subList(heard.events().size() - 2, heard.events().size()))
                .containsExactly("advanced 3 300", "finished");
        long[] last = {0, 0};
        for (String event : heard.events().subList(1, heard.events().size() - 1)) {
            String[] words = event.split(" ");
            assertThat(words[0]).isEqualTo("advanced");
            long done = Long.parseLong(words[1]);
            long bytes = Long.parseLong(words[2]);
            assertThat(done).isGreaterThanOrEqualTo(last[0]);
            assertThat(bytes).isGreaterThanOrEqualTo(last[1]).isGreaterThanOrEqualTo(done * 100);
            last[0] = done;
            last[1] = bytes;
        }
        assertThat(released).containsExactly("value");
    }

    /**
     * What a driver's job shipped is released at its end by dropping the driver's object, not by Spark's destroy
     * (whose first call sets up Spark's call-site logging, about 0.1 s): read afterwards, it fails with our message.
     */
    @Test
    void aDriversShippedValuesAreDroppedWhenItsJobEnds() {
        Configuration hadoop = new Configuration(false);
        hadoop.set("tensorbroadcast.test", "shipped");
        List<Broadcast<org.apache.spark.util.SerializableConfiguration>> shipped = new ArrayList<>();
        List<String> read = JobRun.untracked(JobEngine.driver(hadoop, () -> false), "one task")
                .run("Cannot reduce", run -> {
                    Broadcast<org.apache.spark.util.SerializableConfiguration> conf =
                            run.ship(run.hadoopConfiguration());
                    shipped.add(conf);
                    return run.tasks(
                            1,
                            (Integer index, Iterator<Integer> partition) -> List.of(
                                            conf.value().value().get("tensorbroadcast.test"))
                                    .iterator());
                });
        assertThat(read).containsExactly("shipped");
        assertThat(shipped.get(0)).isInstanceOf(DriverBroadcast.class);
        assertThatThrownBy(() -> shipped.get(0).value())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Cannot read the driver's value " + shipped.get(0).id() + ": it was released when its job"
                        + " ended");
    }

    /** Cancelled (a signal) between tasks: no further task starts, the job fails as Spark's would, undone. */
    @Test
    void aCancelledJobStopsBetweenTasksAndIsUndone() {
        AtomicBoolean cancelled = new AtomicBoolean();
        List<String> done = new CopyOnWriteArrayList<>();
        assertThatThrownBy(() -> JobRun.untracked(
                                JobEngine.driver(new Configuration(false), 1, cancelled::get), "cancelled")
                        .onFailure(() -> done.add("aborted"))
                        .run("Cannot write 'x'", run -> {
                            run.hold("the source", done::add);
                            return run.tasks(3, (Integer index, Iterator<Integer> partition) -> {
                                done.add("task " + index);
                                cancelled.set(true);
                                return List.of(index).iterator();
                            });
                        }))
                .isInstanceOf(JobFailedException.class)
                .hasMessage("Cannot write 'x': the Spark job failed: the job was cancelled: the process is shutting"
                        + " down");
        // one thread: the first task may have been followed by the second, started before the poll saw the signal
        assertThat(done).startsWith("task 0").endsWith("aborted", "the source").doesNotContain("task 2");
    }

    /**
     * Sixteen tasks on four threads: they run at once (the first four wait for each other), each adds to the shared
     * accumulator from its own thread without losing an add, and the results come back in partition order.
     */
    @Test
    void theTasksRunOnSeveralThreadsAtOnceAndReturnInPartitionOrder() {
        CyclicBarrier together = new CyclicBarrier(4);
        Set<String> threads = ConcurrentHashMap.newKeySet();
        HeardProgress heard = new HeardProgress();
        List<Integer> results = JobRun.tracked(
                        JobEngine.driver(new Configuration(false), 4, () -> false),
                        "sixteen",
                        new JobRun.Tracking(heard, "bytes", 16, 16 * 100_000))
                .run("Cannot write 'x'", run -> {
                    LongAccumulator values = run.values();
                    return run.tasks(16, (Integer index, Iterator<Integer> partition) -> {
                        threads.add(Thread.currentThread().getName());
                        if (index < 4) {
                            together.await(30, TimeUnit.SECONDS);
                        }
                        for (int i = 0; i < 100_000; i++) {
                            values.add(1);
                        }
                        // later partitions finish first
                        Thread.sleep(16 - index);
                        return List.of(index).iterator();
                    });
                });
        assertThat(results)
                .containsExactlyElementsOf(IntStream.range(0, 16).boxed().toList());
        assertThat(threads).hasSize(4).allMatch(name -> name.startsWith(DriverPool.THREAD_NAME));
        assertThat(heard.events()).contains("advanced 16 1600000").endsWith("finished");
    }

    /**
     * A thread that finishes a task starts the next one without waiting for the caller's thread: here that thread is
     * held in the first result's handover until the second task has run, which only a task queued ahead can do.
     */
    @Test
    void aFreeThreadStartsTheNextTaskWhileTheCallersThreadIsBusy() throws Exception {
        java.util.concurrent.CountDownLatch secondRan = new java.util.concurrent.CountDownLatch(1);
        List<String> heard = new CopyOnWriteArrayList<>();
        JobRun.untracked(JobEngine.driver(new Configuration(false), 1, () -> false), "queued")
                .run("Cannot write 'x'", run -> {
                    run.inDriver(
                            3,
                            index -> {
                                if (index == 1) {
                                    secondRan.countDown();
                                }
                                return "result " + index;
                            },
                            (index, result) -> {
                                if (index == 0) {
                                    heard.add("second ran while the first was handed over: "
                                            + secondRan.await(30, TimeUnit.SECONDS));
                                }
                                heard.add(result);
                            });
                    return null;
                });
        assertThat(heard)
                .containsExactly(
                        "second ran while the first was handed over: true", "result 0", "result 1", "result 2");
    }

    /**
     * A task's failure stops the job: no further task starts, the running ones are interrupted (their loops check
     * TaskStop), and the failure is thrown, the commit undone, only once every task has stopped.
     */
    @Test
    void aFailedTaskStopsTheOthersBeforeTheJobIsUndone() {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger started = new AtomicInteger();
        List<String> undone = new CopyOnWriteArrayList<>();
        assertThatThrownBy(() -> JobRun.untracked(JobEngine.driver(new Configuration(false), 2, () -> false), "failing")
                        .onFailure(() -> undone.add("aborted with " + running.get() + " running"))
                        .run(
                                "Cannot write 'x'",
                                run -> run.tasks(64, (Integer index, Iterator<Integer> partition) -> {
                                    running.incrementAndGet();
                                    started.incrementAndGet();
                                    try {
                                        if (index == 1) {
                                            Thread.sleep(200);
                                            throw new IllegalStateException("disk on fire in partition 1");
                                        }
                                        // a huge partition: it ends only when stopped
                                        return spinUntilStopped(index);
                                    } finally {
                                        running.decrementAndGet();
                                    }
                                })))
                .isInstanceOf(JobFailedException.class)
                .hasMessage("Cannot write 'x': the Spark job failed: disk on fire in partition 1");
        assertThat(undone).containsExactly("aborted with 0 running");
        // partition 0 spun until stopped, partition 1 failed: no third task started
        assertThat(started.get()).isEqualTo(2);
    }

    /** A refusal a task found (a malformed source) comes out of the pool as that refusal, the commit undone. */
    @Test
    void aTasksRefusalIsThrownAsItIs() {
        List<String> undone = new CopyOnWriteArrayList<>();
        assertThatThrownBy(() -> JobRun.untracked(JobEngine.driver(new Configuration(false), 2, () -> false), "refused")
                        .onFailure(() -> undone.add("aborted"))
                        .run(
                                "Cannot write 'x'",
                                run -> run.tasks(8, (Integer index, Iterator<Integer> partition) -> {
                                    if (index == 5) {
                                        throw new InvalidRequestException("the sum of column 'g' leaves int8");
                                    }
                                    return List.of(index).iterator();
                                })))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("the sum of column 'g' leaves int8");
        assertThat(undone).containsExactly("aborted");
    }

    /**
     * A signal while tasks run: the running ones stop within a moment, not at the end of their partitions, and the
     * job fails as cancelled once they have.
     */
    @Test
    void aSignalStopsRunningTasksWithinAMoment() {
        AtomicBoolean cancelled = new AtomicBoolean();
        AtomicInteger running = new AtomicInteger();
        List<String> undone = new CopyOnWriteArrayList<>();
        long start = System.nanoTime();
        assertThatThrownBy(() -> JobRun.untracked(
                                JobEngine.driver(new Configuration(false), 2, cancelled::get), "signalled")
                        .onFailure(() -> undone.add("aborted with " + running.get() + " running"))
                        .run(
                                "Cannot write 'x'",
                                run -> run.tasks(4, (Integer index, Iterator<Integer> partition) -> {
                                    running.incrementAndGet();
                                    try {
                                        if (index == 1) {
                                            cancelled.set(true);
                                        }
                                        return spinUntilStopped(index);
                                    } finally {
                                        running.decrementAndGet();
                                    }
                                })))
                .isInstanceOf(JobFailedException.class)
                .hasMessageEndingWith("the job was cancelled: the process is shutting down");
        assertThat(undone).containsExactly("aborted with 0 running");
        // far less than the 60 s a task's partition would take
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
    }

    /** A task of a huge partition: it spins for up to a minute, checking for a stop as a task's batches do. */
    private static Iterator<Integer> spinUntilStopped(int index) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            TaskStop.check();
            Thread.onSpinWait();
        }
        return List.of(index).iterator();
    }
}
