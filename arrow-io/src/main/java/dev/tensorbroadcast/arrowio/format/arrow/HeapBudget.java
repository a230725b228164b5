package dev.tensorbroadcast.arrowio.format.arrow;

import dev.tensorbroadcast.arrowio.format.SourceLimits;

/** Counts the heap a reader holds, against {@link SourceLimits#maxHeapBytes()}. Not thread-safe. */
final class HeapBudget {
    private final SourceLimits limits;
    private long held;

    HeapBudget(SourceLimits limits, long initial) {
        this.limits = limits;
        this.held = initial;
    }

    /** Replaces an array of {@code from} bytes by one of {@code to}: both are held while one is copied. */
    void grow(String file, long from, long to) {
        limits.check(file, held + to, "the column's values and the file (" + held + " bytes held)");
        held += to - from;
    }

    /** Forgets {@code bytes} that are no longer referenced. */
    void release(long bytes) {
        held -= bytes;
    }
}
