package dev.tensorbroadcast.planner;

/**
 * Receives the operations of a {@link CopyProgram}, a few per contiguous run, never one per element. Offsets and
 * lengths count elements; target offsets are relative to the start of the range being filled. A kernel implements
 * it with bulk copies.
 */
public interface CopySink {
    /** Copy {@code length} source elements from {@code sourceOffset} to {@code targetOffset}. */
    void copy(long sourceOffset, long targetOffset, long length);

    /**
     * The {@code blockLength} elements at {@code targetOffset} are already written; repeat them so that the block
     * appears {@code times} times in a row from {@code targetOffset} (a kernel doubles the filled part each step).
     */
    void repeat(long targetOffset, long blockLength, long times);
}
