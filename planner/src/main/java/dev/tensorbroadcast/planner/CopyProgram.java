package dev.tensorbroadcast.planner;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Fills a range of the row-major output from the source, as a loop nest over the output's dims merged wherever
 * they are contiguous in both output and source. Each level has a count and a source stride; a stride of 0 means the
 * level repeats what is below it. The innermost level is a contiguous run (stride 1) or one repeated element (0).
 *
 * <p>{@link #run} turns any output range into a few {@link CopySink} operations per run: a whole repeated block
 * costs one {@code copy} and one {@code repeat}, whatever its size. Immutable and serializable, so a Spark task
 * receives it with its partition.
 */
public final class CopyProgram implements Serializable {
    private static final long serialVersionUID = 1L;

    private final long[] counts;
    private final long[] strides;
    /** Output elements per step of each level: the product of the counts below it. */
    private final long[] blocks;

    private final long elements;

    private CopyProgram(long[] counts, long[] strides, long elements) {
        this.counts = counts;
        this.strides = strides;
        this.elements = elements;
        this.blocks = new long[counts.length];
        long block = 1;
        for (int level = counts.length - 1; level >= 0; level--) {
            blocks[level] = block;
            block *= counts[level];
        }
    }

    /**
     * The program for an output of this shape read through these source strides (elements per step along each
     * output axis, 0 where the source repeats), as {@link InputBroadcast#sourceStrides} gives them.
     */
    public static CopyProgram of(Shape output, long[] sourceStrides) {
        if (sourceStrides.length != output.rank()) {
            throw new IllegalArgumentException(
                    "need one stride per output axis of " + output + ", got " + Arrays.toString(sourceStrides));
        }
        long elements = output.elements();
        if (elements == 0) {
            return new CopyProgram(new long[0], new long[0], 0);
        }
        List<long[]> levels = new ArrayList<>();
        for (int axis = 0; axis < output.rank(); axis++) {
            long count = output.dim(axis);
            long stride = sourceStrides[axis];
            if (count == 1) {
                continue;
            }
            if (!levels.isEmpty()) {
                long[] outer = levels.get(levels.size() - 1);
                // contiguous in the source too (or repeated in both): one level walks both
                if (outer[1] == stride * count) {
                    outer[0] *= count;
                    outer[1] = stride;
                    continue;
                }
            }
            levels.add(new long[] {count, stride});
        }
        if (levels.isEmpty()) {
            levels.add(new long[] {1, 1});
        }
        long[] counts = new long[levels.size()];
        long[] strides = new long[levels.size()];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = levels.get(i)[0];
            strides[i] = levels.get(i)[1];
        }
        return new CopyProgram(counts, strides, elements);
    }

    /** The number of output elements this program fills. */
    public long elements() {
        return elements;
    }

    /** The number of loop levels after merging. */
    public int depth() {
        return counts.length;
    }

    public long[] counts() {
        return counts.clone();
    }

    public long[] strides() {
        return strides.clone();
    }

    /** True when the innermost level repeats one element (an inner broadcast such as {@code [N,1] -> [N,M]}). */
    public boolean innermostRepeats() {
        return counts.length > 0 && strides[counts.length - 1] == 0;
    }

    /** The longest contiguous source run the program copies at once, in elements (1 for an inner broadcast). */
    public long innermostRun() {
        if (counts.length == 0) {
            return 0;
        }
        int last = counts.length - 1;
        return strides[last] == 1 ? counts[last] : 1;
    }

    /** The source element that output element {@code outputIndex} reads: the reference mapping, one element at a time. */
    public long sourceIndex(long outputIndex) {
        if (outputIndex < 0 || outputIndex >= elements) {
            throw new IndexOutOfBoundsException("output index " + outputIndex + " outside [0, " + elements + ")");
        }
        long source = 0;
        long rest = outputIndex;
        for (int level = 0; level < counts.length; level++) {
            long index = rest / blocks[level];
            rest -= index * blocks[level];
            source += index * strides[level];
        }
        return source;
    }

    /**
     * Whether output elements {@code [first, first + length)} and {@code [second, second + length)} are copies of the
     * same source elements in the same order, as the program proves it: every level that moves through the source
     * (a stride other than 0) has the same index at both starts and steps at the same offsets in both ranges, so
     * the two ranges hold equal values whatever the source holds. False means not proven, not different.
     */
    public boolean sameSource(long first, long second, long length) {
        if (length < 0 || first < 0 || second < 0 || first > elements - length || second > elements - length) {
            throw new IndexOutOfBoundsException(
                    "ranges of " + length + " at " + first + " and " + second + " outside [0, " + elements + ")");
        }
        if (length == 0 || first == second) {
            return true;
        }
        long distance = Math.abs(second - first);
        for (int level = 0; level < counts.length; level++) {
            if (strides[level] == 0) {
                continue;
            }
            long block = blocks[level];
            if (first / block % counts[level] != second / block % counts[level]) {
                return false;
            }
            if (distance % block != 0 && (stepsWithin(first, length, block) || stepsWithin(second, length, block))) {
                return false;
            }
        }
        return true;
    }

    /** Whether a level of this block size moves to its next index inside {@code [start, start + length)}. */
    private static boolean stepsWithin(long start, long length, long block) {
        return start % block + length > block;
    }

    /** Emits the operations that fill output elements {@code [start, end)}; target offsets are relative to start. */
    public void run(long start, long end, CopySink sink) {
        run(start, end, 0, sink);
    }

    /**
     * As {@link #run(long, long, CopySink)}, with source offsets relative to source element {@code sourceOrigin}: for
     * a source held from that element on, such as the rows of a slice ({@link BroadcastPlan#sourceRows}).
     */
    public void run(long start, long end, long sourceOrigin, CopySink sink) {
        if (isEmptyRange(start, end)) {
            return;
        }
        fill(0, -sourceOrigin, 0, start, end, start, sink);
    }

    /** Checks that {@code [start, end)} lies in the output; true when it holds no element. */
    private boolean isEmptyRange(long start, long end) {
        if (start < 0 || end < start || end > elements) {
            throw new IndexOutOfBoundsException("range [" + start + ", " + end + ") outside [0, " + elements + ")");
        }
        return start == end;
    }

    /** Fills {@code [lo, hi)}, which lies in the block of {@code level} that starts at output index {@code base}. */
    private void fill(int level, long source, long base, long lo, long hi, long origin, CopySink sink) {
        long stride = strides[level];
        if (level == counts.length - 1) {
            fillInnermost(stride, source, base, lo, hi, origin, sink);
            return;
        }
        long block = blocks[level];
        long first = (lo - base) / block;
        long last = (hi - 1 - base) / block;
        if (first == last) {
            fill(level + 1, source + first * stride, base + first * block, lo, hi, origin, sink);
            return;
        }
        long next = first;
        long firstStart = base + first * block;
        if (lo > firstStart) {
            fill(level + 1, source + first * stride, firstStart, lo, firstStart + block, origin, sink);
            next = first + 1;
        }
        long lastStart = base + last * block;
        long fullEnd = hi == lastStart + block ? last + 1 : last;
        if (fullEnd > next) {
            if (stride == 0) {
                long at = base + next * block;
                fill(level + 1, source, at, at, at + block, origin, sink);
                if (fullEnd - next > 1) {
                    sink.repeat(at - origin, block, fullEnd - next);
                }
            } else {
                for (long index = next; index < fullEnd; index++) {
                    long at = base + index * block;
                    fill(level + 1, source + index * stride, at, at, at + block, origin, sink);
                }
            }
        }
        if (fullEnd == last) {
            fill(level + 1, source + last * stride, lastStart, lastStart, hi, origin, sink);
        }
    }

    private static void fillInnermost(
            long stride, long source, long base, long lo, long hi, long origin, CopySink sink) {
        if (stride == 1) {
            sink.copy(source + (lo - base), lo - origin, hi - lo);
        } else if (stride == 0) {
            sink.copy(source, lo - origin, 1);
            if (hi - lo > 1) {
                sink.repeat(lo - origin, 1, hi - lo);
            }
        } else {
            // not produced by a row-major input, kept for completeness: one element per step
            for (long index = lo; index < hi; index++) {
                sink.copy(source + (index - base) * stride, index - origin, 1);
            }
        }
    }

    /**
     * Emits the reverse of {@link #run(long, long, long, CopySink)} for output elements {@code [start, end)}: every
     * output element is added into the source element it was copied from. Unlike the forward run there is no repeat
     * shortcut, since each repeated block holds different gradient values; a run costs one call whatever its length.
     */
    public void reduce(long start, long end, long sourceOrigin, ReduceSink sink) {
        if (isEmptyRange(start, end)) {
            return;
        }
        gather(0, -sourceOrigin, 0, start, end, start, sink);
    }

    /** Reduces {@code [lo, hi)}, which lies in the block of {@code level} that starts at output index {@code base}. */
    private void gather(int level, long source, long base, long lo, long hi, long origin, ReduceSink sink) {
        long stride = strides[level];
        if (level == counts.length - 1) {
            if (stride == 1) {
                sink.add(source + (lo - base), lo - origin, hi - lo);
            } else if (stride == 0) {
                sink.sum(source, lo - origin, hi - lo);
            } else {
                for (long index = lo; index < hi; index++) {
                    sink.add(source + (index - base) * stride, index - origin, 1);
                }
            }
            return;
        }
        long block = blocks[level];
        long first = (lo - base) / block;
        long last = (hi - 1 - base) / block;
        if (stride == 0 && level == counts.length - 2 && strides[level + 1] == 1) {
            gatherRepeatedRuns(source, base, lo, hi, origin, sink, block, first, last);
            return;
        }
        for (long index = first; index <= last; index++) {
            long at = base + index * block;
            gather(level + 1, source + index * stride, at, Math.max(lo, at), Math.min(hi, at + block), origin, sink);
        }
    }

    /**
     * The level above a contiguous run repeats it (a summed axis over a kept run, as in {@code [N,K] -> [1,K]}): its
     * whole blocks add into the same source run, so they go to the sink as one {@link ReduceSink#addRepeated} call
     * instead of one {@code add} per block (per gradient row), with a partial block at either end as an {@code add}.
     */
    private static void gatherRepeatedRuns(
            long source, long base, long lo, long hi, long origin, ReduceSink sink, long block, long first, long last) {
        long index = first;
        long at = base + first * block;
        if (lo > at || hi < at + block) {
            long to = Math.min(hi, at + block);
            sink.add(source + (lo - at), lo - origin, to - lo);
            index++;
        }
        long wholeEnd = (hi - base) / block;
        if (wholeEnd > index) {
            sink.addRepeated(source, base + index * block - origin, block, wholeEnd - index, block);
            index = wholeEnd;
        }
        if (index <= last) {
            at = base + index * block;
            sink.add(source, at - origin, hi - at);
        }
    }

    /** The nest, outermost first: {@code 65536x(stride 0) 4096x(stride 1)}. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (int level = 0; level < counts.length; level++) {
            if (level > 0) {
                text.append(' ');
            }
            text.append(counts[level])
                    .append("x(stride ")
                    .append(strides[level])
                    .append(')');
        }
        return text.length() == 0 ? "empty" : text.toString();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CopyProgram that
                && elements == that.elements
                && Arrays.equals(counts, that.counts)
                && Arrays.equals(strides, that.strides);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(counts) + Arrays.hashCode(strides);
    }
}
