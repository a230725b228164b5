package dev.tensorbroadcast.job.dataset;

import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.ElementBatch;
import dev.tensorbroadcast.planner.DType;

/** Fills an {@link ElementBatch} with what the planner's copy program says a range of the output holds. */
final class ExpectedValues {
    private ExpectedValues() {}

    static void fill(TensorKernel kernel, long firstRow, int rows, long rowElements, ElementBatch into) {
        int elements = Math.toIntExact(rows * rowElements);
        into.reset(firstRow, rows, elements);
        long start = firstRow * rowElements;
        long end = start + elements;
        if (kernel.dtype() == DType.STRING) {
            int bytes = kernel.fillStringOffsets(start, end, into.offsets());
            kernel.fillStringData(start, end, into.offsets(), into.ensureData(bytes));
        } else {
            kernel.fillValues(start, end, into.values());
        }
        kernel.fillValidity(start, end, into.validity());
    }
}
