package dev.tensorbroadcast.job.dataset;

import dev.tensorbroadcast.arrowio.format.ElementBatch;
import dev.tensorbroadcast.planner.DType;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.util.ByteFunctionHelpers;

/**
 * Compares a batch read from a file with the batch the copy program gives for the same rows. A batch with no nulls
 * on either side is compared with one bulk comparison of its buffers; only a batch that differs, or holds nulls, is
 * walked element by element, to find and describe the differences. The first {@code maxListed} differences are kept
 * as messages; all are counted.
 */
final class ValueComparison {
    private final long rowElements;
    private final int maxListed;
    private final List<String> listed = new ArrayList<>();
    private long differences;
    private long compared;

    ValueComparison(long rowElements, int maxListed) {
        this.rowElements = rowElements;
        this.maxListed = maxListed;
    }

    /** Compares the elements of {@code found}, read from {@code file}, with {@code expected} for the same rows. */
    void compare(String file, ElementBatch expected, ElementBatch found, boolean expectNulls) {
        int elements = found.elements();
        compared += elements;
        boolean sameValidity = ElementBatch.sameBits(expected.validity(), found.validity(), elements);
        if (!expectNulls && sameValidity && sameValues(expected, found, elements)) {
            return;
        }
        for (int i = 0; i < elements; i++) {
            boolean valid = expected.isValid(i);
            if (valid != found.isValid(i) || (valid && !sameElement(expected, found, i))) {
                differences++;
                if (listed.size() < maxListed) {
                    long row = found.firstRow() + i / rowElements;
                    listed.add(file + ": row " + row + " element " + i % rowElements + ": expected "
                            + ElementText.of(expected, i) + ", found " + ElementText.of(found, i));
                }
            }
        }
    }

    List<String> listed() {
        return listed;
    }

    long differences() {
        return differences;
    }

    long compared() {
        return compared;
    }

    private static boolean sameValues(ElementBatch expected, ElementBatch found, int elements) {
        DType dtype = found.dtype();
        if (dtype == DType.BOOL) {
            return ElementBatch.sameBits(expected.values(), found.values(), elements);
        }
        if (dtype == DType.STRING) {
            long offsetBytes = (elements + 1L) * Integer.BYTES;
            if (ByteFunctionHelpers.equal(expected.offsets(), 0, offsetBytes, found.offsets(), 0, offsetBytes) == 0) {
                return false;
            }
            int dataBytes = found.offsets().getInt((long) elements * Integer.BYTES);
            return dataBytes == 0
                    || ByteFunctionHelpers.equal(expected.data(), 0, dataBytes, found.data(), 0, dataBytes) == 1;
        }
        long bytes = (long) elements * dtype.byteWidth();
        return bytes == 0 || ByteFunctionHelpers.equal(expected.values(), 0, bytes, found.values(), 0, bytes) == 1;
    }

    private static boolean sameElement(ElementBatch expected, ElementBatch found, int index) {
        DType dtype = found.dtype();
        if (dtype == DType.BOOL) {
            return expected.bit(index) == found.bit(index);
        }
        if (dtype == DType.STRING) {
            long at = 4L * index;
            int expectedStart = expected.offsets().getInt(at);
            int expectedEnd = expected.offsets().getInt(at + 4);
            int foundStart = found.offsets().getInt(at);
            int foundEnd = found.offsets().getInt(at + 4);
            return expectedEnd - expectedStart == foundEnd - foundStart
                    && (expectedEnd == expectedStart
                            || ByteFunctionHelpers.equal(
                                            expected.data(),
                                            expectedStart,
                                            expectedEnd,
                                            found.data(),
                                            foundStart,
                                            foundEnd)
                                    == 1);
        }
        long width = dtype.byteWidth();
        long start = index * width;
        return ByteFunctionHelpers.equal(expected.values(), start, start + width, found.values(), start, start + width)
                == 1;
    }
}
