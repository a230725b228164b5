package dev.tensorbroadcast.job.dataset;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.ArrayFileFormat;
import dev.tensorbroadcast.arrowio.format.ArrayLayout;
import dev.tensorbroadcast.arrowio.format.ArrayReader;
import dev.tensorbroadcast.job.base.Progress;
import dev.tensorbroadcast.planner.DType;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Compares an array format's values (read slab by slab of the first dim through its {@link ArrayReader}) with what
 * the copy program takes from the source: element by element, as stored bytes (a float's bits, so a NaN equals its
 * copy), a few slabs' bytes at a time.
 */
final class ArrayValues {
    private static final long SLAB_BYTES = 8L << 20;

    private final DatasetDirectory dir;
    private final ArrayFileFormat format;
    private final TensorKernel kernel;
    private final int maxListed;

    ArrayValues(DatasetDirectory dir, ArrayFileFormat format, TensorKernel kernel, int maxListed) {
        this.dir = requireNonNull(dir, "dir is null");
        this.format = requireNonNull(format, "format is null");
        this.kernel = requireNonNull(kernel, "kernel is null");
        this.maxListed = maxListed;
    }

    /** Adds a line per listed difference and one with their count to {@code problems}; returns elements compared. */
    long compare(List<String> problems, Progress progress) throws IOException {
        ArrayReader reader;
        try {
            reader = format.open(
                    dir.fileSystem(), dir.resolve(format.metadataName()).getParent());
        } catch (IOException | RuntimeException e) {
            problems.add(format.metadataName() + ": cannot read: " + e.getMessage());
            return 0;
        }
        ArrayLayout layout = reader.layout();
        long[] shape = layout.shape().dims();
        int width = ArrayLayout.storedBytes(layout.dtype());
        long inner = 1;
        for (int i = 1; i < shape.length; i++) {
            inner *= shape[i];
        }
        long firstDim = shape.length == 0 ? 1 : shape[0];
        long perRead = Math.max(1, SLAB_BYTES / Math.max(1, inner * width));
        long compared = 0;
        long differences = 0;
        progress.started(DatasetVerifier.VERIFY_DESCRIPTION, 1, layout.shape().elements() * width);
        try (BufferAllocator allocator = new RootAllocator();
                ArrowBuf expected = allocator.buffer(Math.max(8, perRead * inner * (long) width))) {
            for (long first = 0; first < firstDim; first += perRead) {
                long count = Math.min(perRead, firstDim - first);
                byte[] actual = reader.readSlab(first, count);
                long start = first * inner;
                long elements = count * inner;
                byte[] wanted = expected(start, elements, width, layout.dtype(), expected);
                for (long e = 0; e < elements; e++) {
                    int at = (int) (e * width);
                    if (!Arrays.equals(actual, at, at + width, wanted, at, at + width)) {
                        if (differences < maxListed) {
                            problems.add("element " + (start + e) + ": " + hex(actual, at, width) + ", the source"
                                    + " gives " + hex(wanted, at, width));
                        }
                        differences++;
                    }
                }
                compared += elements;
                progress.advanced(0, compared * width);
            }
        } catch (IOException | RuntimeException e) {
            problems.add("cannot read the array: " + e.getMessage());
        } finally {
            progress.finished();
        }
        if (differences > 0) {
            problems.add(differences + (differences == 1 ? " value differs" : " values differ") + " from the source");
        }
        return compared;
    }

    private byte[] expected(long start, long elements, int width, DType dtype, ArrowBuf buffer) {
        byte[] values = new byte[Math.toIntExact(elements * width)];
        if (elements == 0) {
            return values;
        }
        kernel.fillValues(start, start + elements, buffer);
        if (dtype == DType.BOOL) {
            for (int i = 0; i < elements; i++) {
                values[i] = (byte) ((buffer.getByte(i >>> 3) >>> (i & 7)) & 1);
            }
        } else {
            buffer.getBytes(0, values, 0, values.length);
        }
        return values;
    }

    private static String hex(byte[] bytes, int at, int width) {
        StringBuilder text = new StringBuilder("0x");
        for (int i = width - 1; i >= 0; i--) {
            text.append(String.format("%02x", bytes[at + i]));
        }
        return text.toString();
    }
}
