package dev.tensorbroadcast.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A job's thread left waiting after its context stopped is interrupted after the grace; otherwise it is left alone. */
class StoppedContextWatchTest {
    @Test
    void aWaitThatOutlivesTheStoppedContextByTheGraceIsInterrupted() throws Exception {
        AtomicBoolean stopped = new AtomicBoolean();
        CountDownLatch interrupted = new CountDownLatch(1);
        Thread job = new Thread(() -> {
            try (StoppedContextWatch watch =
                    StoppedContextWatch.start(stopped::get, Thread.currentThread(), Duration.ofMillis(300))) {
                // a job's result that never comes
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
        });
        job.start();
        Thread.sleep(700);
        assertThat(interrupted.getCount())
                .as("interrupted while the context ran")
                .isEqualTo(1);
        long start = System.nanoTime();
        stopped.set(true);
        assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat((System.nanoTime() - start) / 1e9).isGreaterThanOrEqualTo(0.3);
        job.join(5000);
        assertThat(job.isAlive()).isFalse();
    }

    @Test
    void aJobThatReturnsKeepsNoInterruptionAndIsNotInterruptedLater() throws Exception {
        AtomicBoolean stopped = new AtomicBoolean();
        try (StoppedContextWatch watch =
                StoppedContextWatch.start(stopped::get, Thread.currentThread(), Duration.ofMillis(100))) {
            Thread.sleep(100);
        }
        stopped.set(true);
        Thread.sleep(1000);
        assertThat(Thread.interrupted()).isFalse();
    }
}
