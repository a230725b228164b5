package dev.tensorbroadcast.planner;

/**
 * The brute-force meaning of a broadcast, written without {@link CopyProgram}: which input element each output
 * element reads. Tests compare the planner's programs against it.
 */
final class BroadcastReference {
    private BroadcastReference() {}

    /** The row-major input index that output element {@code outputIndex} reads. */
    static long sourceIndex(Shape output, Shape input, int[] outputAxes, long outputIndex) {
        long[] outputPosition = new long[output.rank()];
        long rest = outputIndex;
        for (int axis = output.rank() - 1; axis >= 0; axis--) {
            long dim = output.dim(axis);
            outputPosition[axis] = rest % dim;
            rest /= dim;
        }
        long source = 0;
        for (int i = 0; i < input.rank(); i++) {
            long position = input.dim(i) == 1 ? 0 : outputPosition[outputAxes[i]];
            source = source * input.dim(i) + position;
        }
        return source;
    }

    /** The source index of every output element in {@code [start, end)}. */
    static long[] sourceIndexes(Shape output, Shape input, int[] outputAxes, long start, long end) {
        long[] indexes = new long[Math.toIntExact(end - start)];
        for (int i = 0; i < indexes.length; i++) {
            indexes[i] = sourceIndex(output, input, outputAxes, start + i);
        }
        return indexes;
    }
}
