package dev.tensorbroadcast.job;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.planner.TooLargeException;
import org.junit.jupiter.api.Test;

class TaskCountGuardTest {
    private static final long GIB = 1L << 30;

    @Test
    void refusesMoreTasksThanTheDriverHoldsAndSaysWhatWouldWork() {
        // the report's case: 10^7 partitions of [10^7,4096] float32 (160 GB) on a 4 GiB driver
        assertThatThrownBy(() -> TaskCountGuard.check(10_000_000, 10_000_000L * 4096 * 4, 4 * GIB))
                .isInstanceOf(TooLargeException.class)
                .hasMessage("Cannot run 10000000 tasks: the driver keeps about 2.0 KiB per task, and its heap of"
                        + " 4.0 GiB holds about 2097152; give partitions(156250) (partitions of 1.0 MiB), or a"
                        + " larger heap (TENSOR_BROADCAST_HEAP)");
    }

    @Test
    void allowsSmallPartitionsOfSmallOutputsAndAnyCountTheHeapHolds() {
        assertThatCode(() -> TaskCountGuard.check(4, 192, GIB)).doesNotThrowAnyException();
        assertThatCode(() -> TaskCountGuard.check(524_288, 524_288, GIB)).doesNotThrowAnyException();
        assertThatThrownBy(() -> TaskCountGuard.check(524_289, 1L << 40, GIB))
                .hasMessageStartingWith("Cannot run 524289 tasks: ")
                .hasMessageContaining("give partitions(524288) (partitions of 2.0 MiB)");
    }
}
