package dev.tensorbroadcast.planner;

/**
 * Receives a {@link CopyProgram} run in reverse: where the forward program copies source elements into the output,
 * the reverse adds output-shaped gradient elements back into the source-shaped sum. Offsets and lengths count
 * elements; gradient offsets are relative to the start of the range being reduced. A kernel implements it with bulk
 * loops, a few calls per contiguous run.
 */
public interface ReduceSink {
    /** {@code sum[sourceOffset + i] += gradient[gradientOffset + i]} for each {@code i < length}. */
    void add(long sourceOffset, long gradientOffset, long length);

    /** {@code sum[sourceOffset] += gradient[gradientOffset] + ... + gradient[gradientOffset + length - 1]}. */
    void sum(long sourceOffset, long gradientOffset, long length);

    /**
     * {@code count} runs of {@code length} gradient elements, {@code gradientStride} apart, all added into the same
     * {@code length} sums, in run order: {@code add(sourceOffset, gradientOffset + k * gradientStride, length)} for
     * {@code k = 0 .. count - 1}. A kernel overrides it with one loop (a gradient chunk of rows in one call); each sum
     * still adds its values in the same order, so the bits are those of the single {@code add}s.
     */
    default void addRepeated(long sourceOffset, long gradientOffset, long length, long count, long gradientStride) {
        for (long k = 0; k < count; k++) {
            add(sourceOffset, gradientOffset + k * gradientStride, length);
        }
    }
}
