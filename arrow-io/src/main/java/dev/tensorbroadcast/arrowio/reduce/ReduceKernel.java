package dev.tensorbroadcast.arrowio.reduce;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.ReduceSink;
import dev.tensorbroadcast.planner.Shape;
import java.io.Serializable;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * A partial sum of a gradient, input-shaped (or a slice of the input): floats add up in float64, complex numbers as
 * float64 pairs, integers exactly in 64 bits, where leaving 64 bits is an error rather than a wrap. Partials merge
 * element by element, so a job that merges them in a fixed order gets the same bits every run. The loops read the
 * gradient's little-endian bytes directly, one dtype switch per contiguous run.
 */
public final class ReduceKernel implements Serializable {
    private static final long serialVersionUID = 1L;

    private static final VarHandle SHORTS =
            MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle FLOATS =
            MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle DOUBLES =
            MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.LITTLE_ENDIAN);

    private final DType dtype;
    private final int elements;
    /** Float and complex sums (complex: real and imaginary part side by side); null for integers. */
    private final double[] floats;
    /** Integer sums, exact; null for floats. */
    private final long[] integers;

    private ReduceKernel(DType dtype, int elements) {
        this.dtype = dtype;
        this.elements = elements;
        if (isInteger(dtype)) {
            this.floats = null;
            this.integers = new long[elements];
        } else {
            this.floats = new double[isComplex(dtype) ? 2 * elements : elements];
            this.integers = null;
        }
    }

    /** A zero partial of {@code elements} result elements for a gradient of {@code dtype}, or a refusal. */
    public static ReduceKernel create(DType dtype, long elements) {
        requireNonNull(dtype, "dtype is null");
        if (dtype == DType.BOOL || dtype == DType.STRING) {
            throw new InvalidRequestException("Cannot reduce a " + dtype + " gradient: a sum needs a numeric dtype (an"
                    + " integer, float or complex type)");
        }
        if (elements < 0 || elements > Integer.MAX_VALUE - 16) {
            throw new InvalidRequestException(
                    "Cannot reduce into " + elements + " elements: a partial sum holds" + " fewer than 2^31 elements");
        }
        return new ReduceKernel(dtype, (int) elements);
    }

    public DType dtype() {
        return dtype;
    }

    public long elements() {
        return elements;
    }

    /**
     * Adds gradient elements {@code [start, end)} (output-wide indexes) into this partial, following {@code program}
     * in reverse. {@code gradient} holds the output from element {@code gradientOrigin} on (a task's chunk of rows);
     * this partial holds the result from element {@code sourceOrigin} on (the whole result, or a task's slice).
     */
    public void accumulate(
            SourceTensor gradient, long gradientOrigin, CopyProgram program, long start, long end, long sourceOrigin) {
        if (gradient.dtype() != dtype) {
            throw new IllegalArgumentException(
                    "a " + dtype + " partial cannot sum a " + gradient.dtype() + " gradient");
        }
        if (gradient.hasNulls()) {
            throw new InvalidRequestException("Cannot reduce a " + dtype + " gradient: it has null values; a sum needs"
                    + " every value (fill the nulls first)");
        }
        if (start < gradientOrigin || end - gradientOrigin > gradient.elements()) {
            throw new IndexOutOfBoundsException("gradient elements [" + start + ", " + end + ") are not in the chunk"
                    + " held from " + gradientOrigin + " (" + gradient.elements() + " elements)");
        }
        program.reduce(start, end, sourceOrigin, new Sink(gradient.values(), start - gradientOrigin));
    }

    /** Adds {@code other} into this partial, element by element. */
    public void merge(ReduceKernel other) {
        if (other.dtype != dtype || other.elements != elements) {
            throw new IllegalArgumentException("cannot merge a " + other.dtype + " partial of " + other.elements
                    + " elements into a " + dtype + " partial of " + elements);
        }
        if (integers != null) {
            for (int i = 0; i < elements; i++) {
                integers[i] = addInteger(integers[i], other.integers[i], i);
            }
        } else {
            for (int i = 0; i < floats.length; i++) {
                floats[i] += other.floats[i];
            }
        }
    }

    /** The sums in the gradient's dtype, as a tensor of {@code shape}: floats rounded once, integers range-checked. */
    public SourceTensor result(Shape shape) {
        if (shape.elements() != elements) {
            throw new IllegalArgumentException(shape + " does not hold " + elements + " elements");
        }
        byte[] bytes = new byte[Math.toIntExact((long) elements * dtype.byteWidth())];
        write(elements, bytes, 0);
        return SourceTensor.fixedWidth(dtype, shape, bytes, null);
    }

    /**
     * Writes the first {@code count} sums, as {@link #result} would, into {@code bytes} from byte {@code offset}, and
     * sets them back to zero: a task that sums its rows a block at a time reuses one partial and writes each block
     * once, into its own result, where a partial and a result per block were fresh memory (docs/benchmarks.md).
     */
    public void takeResult(int count, byte[] bytes, int offset) {
        if (count < 0 || count > elements) {
            throw new IndexOutOfBoundsException(count + " sums asked of a partial of " + elements);
        }
        Objects.checkFromIndexSize(offset, count * dtype.byteWidth(), bytes.length);
        write(count, bytes, offset);
        if (integers != null) {
            Arrays.fill(integers, 0, count, 0L);
        } else {
            Arrays.fill(floats, 0, isComplex(dtype) ? 2 * count : count, 0.0);
        }
    }

    private void write(int count, byte[] bytes, int offset) {
        switch (dtype) {
            case FLOAT64, COMPLEX128 -> {
                int lanes = dtype == DType.COMPLEX128 ? 2 * count : count;
                for (int i = 0; i < lanes; i++) {
                    DOUBLES.set(bytes, offset + 8 * i, floats[i]);
                }
            }
            case FLOAT32, COMPLEX64 -> {
                int lanes = dtype == DType.COMPLEX64 ? 2 * count : count;
                for (int i = 0; i < lanes; i++) {
                    FLOATS.set(bytes, offset + 4 * i, (float) floats[i]);
                }
            }
            case FLOAT16 -> {
                for (int i = 0; i < count; i++) {
                    SHORTS.set(bytes, offset + 2 * i, HalfFloats.doubleToHalf(floats[i]));
                }
            }
            case BFLOAT16 -> {
                for (int i = 0; i < count; i++) {
                    SHORTS.set(bytes, offset + 2 * i, HalfFloats.doubleToBfloat16(floats[i]));
                }
            }
            default -> writeIntegers(count, bytes, offset);
        }
    }

    private void writeIntegers(int count, byte[] bytes, int offset) {
        int width = dtype.byteWidth();
        for (int i = 0; i < count; i++) {
            long value = integers[i];
            checkRange(value, i);
            int at = offset + width * i;
            switch (width) {
                case 1 -> bytes[at] = (byte) value;
                case 2 -> SHORTS.set(bytes, at, (short) value);
                case 4 -> INTS.set(bytes, at, (int) value);
                default -> LONGS.set(bytes, at, value);
            }
        }
    }

    private void checkRange(long value, int index) {
        long min;
        long max;
        switch (dtype) {
            case INT8 -> {
                min = Byte.MIN_VALUE;
                max = Byte.MAX_VALUE;
            }
            case INT16 -> {
                min = Short.MIN_VALUE;
                max = Short.MAX_VALUE;
            }
            case INT32 -> {
                min = Integer.MIN_VALUE;
                max = Integer.MAX_VALUE;
            }
            case UINT8 -> {
                min = 0;
                max = 0xff;
            }
            case UINT16 -> {
                min = 0;
                max = 0xffff;
            }
            case UINT32 -> {
                min = 0;
                max = 0xffffffffL;
            }
            default -> {
                return;
            }
        }
        if (value < min || value > max) {
            throw new InvalidRequestException("Cannot reduce a " + dtype + " gradient: the sum at input element "
                    + index + " is " + value + ", outside " + dtype + "'s range [" + min + ", " + max
                    + "]; reduce a copy in a wider type");
        }
    }

    private long addInteger(long sum, long value, long index) {
        long result = sum + value;
        boolean overflow =
                dtype == DType.UINT64 ? Long.compareUnsigned(result, sum) < 0 : ((sum ^ result) & (value ^ result)) < 0;
        if (overflow) {
            throw leaves64Bits(index);
        }
        return result;
    }

    private InvalidRequestException leaves64Bits(long index) {
        return new InvalidRequestException("Cannot reduce a " + dtype + " gradient: the sum at input element " + index
                + " leaves 64 bits; reduce a copy in a float type");
    }

    private static boolean isInteger(DType dtype) {
        return switch (dtype) {
            case INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64 -> true;
            default -> false;
        };
    }

    private static boolean isComplex(DType dtype) {
        return dtype == DType.COMPLEX64 || dtype == DType.COMPLEX128;
    }

    /** The reverse program's runs as loops over the gradient bytes; offsets count elements. */
    private final class Sink implements ReduceSink {
        private final byte[] gradient;
        /** The chunk element where the range being reduced starts. */
        private final long base;

        Sink(byte[] gradient, long base) {
            this.gradient = gradient;
            this.base = base;
        }

        @Override
        public void add(long sourceOffset, long gradientOffset, long length) {
            int to = Math.toIntExact(sourceOffset);
            int from = Math.toIntExact(base + gradientOffset);
            int count = Math.toIntExact(length);
            switch (dtype) {
                case FLOAT32 -> addFloats(to, from, count);
                case FLOAT64 -> addDoubles(to, from, count);
                case COMPLEX64 -> addFloats(2 * to, 2 * from, 2 * count);
                case COMPLEX128 -> addDoubles(2 * to, 2 * from, 2 * count);
                case FLOAT16, BFLOAT16 -> {
                    boolean half = dtype == DType.FLOAT16;
                    for (int i = 0; i < count; i++) {
                        short bits = (short) SHORTS.get(gradient, 2 * (from + i));
                        floats[to + i] += half ? HalfFloats.halfToDouble(bits) : HalfFloats.bfloat16ToDouble(bits);
                    }
                }
                case UINT64 -> {
                    for (int i = 0; i < count; i++) {
                        integers[to + i] =
                                addInteger(integers[to + i], (long) LONGS.get(gradient, 8 * (from + i)), to + i);
                    }
                }
                default -> addIntegers(to, from, count);
            }
        }

        /**
         * A chunk's rows added into one run of sums in a single call (a loop the JIT compiles on its own back edges,
         * rather than a call per row); row by row, so each sum adds its values in the order single adds would.
         */
        @Override
        public void addRepeated(long sourceOffset, long gradientOffset, long length, long count, long gradientStride) {
            int to = Math.toIntExact(sourceOffset);
            int from = Math.toIntExact(base + gradientOffset);
            int run = Math.toIntExact(length);
            int runs = Math.toIntExact(count);
            int stride = Math.toIntExact(gradientStride);
            switch (dtype) {
                case FLOAT32 -> addFloatRuns(to, from, run, runs, stride);
                case FLOAT64 -> addDoubleRuns(to, from, run, runs, stride);
                case COMPLEX64 -> addFloatRuns(2 * to, 2 * from, 2 * run, runs, 2 * stride);
                case COMPLEX128 -> addDoubleRuns(2 * to, 2 * from, 2 * run, runs, 2 * stride);
                default -> ReduceSink.super.addRepeated(sourceOffset, gradientOffset, length, count, gradientStride);
            }
        }

        @Override
        public void sum(long sourceOffset, long gradientOffset, long length) {
            int to = Math.toIntExact(sourceOffset);
            int from = Math.toIntExact(base + gradientOffset);
            int count = Math.toIntExact(length);
            switch (dtype) {
                case FLOAT32 -> floats[to] += sumFloats(from, count);
                case FLOAT64 -> floats[to] += sumDoubles(from, count);
                case COMPLEX64, COMPLEX128 -> {
                    for (int i = 0; i < count; i++) {
                        if (dtype == DType.COMPLEX64) {
                            addFloats(2 * to, 2 * (from + i), 2);
                        } else {
                            addDoubles(2 * to, 2 * (from + i), 2);
                        }
                    }
                }
                case FLOAT16, BFLOAT16 -> {
                    boolean half = dtype == DType.FLOAT16;
                    double total = floats[to];
                    for (int i = 0; i < count; i++) {
                        short bits = (short) SHORTS.get(gradient, 2 * (from + i));
                        total += half ? HalfFloats.halfToDouble(bits) : HalfFloats.bfloat16ToDouble(bits);
                    }
                    floats[to] = total;
                }
                default -> {
                    long total = integers[to];
                    for (int i = 0; i < count; i++) {
                        total = addInteger(total, integer(from + i), to);
                    }
                    integers[to] = total;
                }
            }
        }

        /**
         * The sum of a run, in four interleaved accumulators so that the adds do not wait on each other; a fixed
         * order, so the same run gives the same bits every time.
         */
        private double sumFloats(int from, int count) {
            byte[] bytes = gradient;
            double a = 0;
            double b = 0;
            double c = 0;
            double d = 0;
            int i = 0;
            for (; i + 4 <= count; i += 4) {
                int at = 4 * (from + i);
                a += (float) FLOATS.get(bytes, at);
                b += (float) FLOATS.get(bytes, at + 4);
                c += (float) FLOATS.get(bytes, at + 8);
                d += (float) FLOATS.get(bytes, at + 12);
            }
            for (; i < count; i++) {
                a += (float) FLOATS.get(bytes, 4 * (from + i));
            }
            return (a + b) + (c + d);
        }

        private double sumDoubles(int from, int count) {
            byte[] bytes = gradient;
            double a = 0;
            double b = 0;
            double c = 0;
            double d = 0;
            int i = 0;
            for (; i + 4 <= count; i += 4) {
                int at = 8 * (from + i);
                a += (double) DOUBLES.get(bytes, at);
                b += (double) DOUBLES.get(bytes, at + 8);
                c += (double) DOUBLES.get(bytes, at + 16);
                d += (double) DOUBLES.get(bytes, at + 24);
            }
            for (; i < count; i++) {
                a += (double) DOUBLES.get(bytes, 8 * (from + i));
            }
            return (a + b) + (c + d);
        }

        /** Signed integers and unsigned ones below 64 bits: a long holds each value, Math.addExact each sum. */
        private void addIntegers(int to, int from, int count) {
            long[] sums = integers;
            byte[] bytes = gradient;
            int i = 0;
            try {
                switch (dtype) {
                    case INT8 -> {
                        for (i = 0; i < count; i++) {
                            sums[to + i] = Math.addExact(sums[to + i], bytes[from + i]);
                        }
                    }
                    case UINT8 -> {
                        for (i = 0; i < count; i++) {
                            sums[to + i] = Math.addExact(sums[to + i], bytes[from + i] & 0xffL);
                        }
                    }
                    case INT16 -> {
                        for (i = 0; i < count; i++) {
                            sums[to + i] = Math.addExact(sums[to + i], (short) SHORTS.get(bytes, 2 * (from + i)));
                        }
                    }
                    case UINT16 -> {
                        for (i = 0; i < count; i++) {
                            sums[to + i] =
                                    Math.addExact(sums[to + i], (short) SHORTS.get(bytes, 2 * (from + i)) & 0xffffL);
                        }
                    }
                    case INT32 -> {
                        for (i = 0; i < count; i++) {
                            sums[to + i] = Math.addExact(sums[to + i], (int) INTS.get(bytes, 4 * (from + i)));
                        }
                    }
                    case UINT32 -> {
                        for (i = 0; i < count; i++) {
                            sums[to + i] =
                                    Math.addExact(sums[to + i], (int) INTS.get(bytes, 4 * (from + i)) & 0xffffffffL);
                        }
                    }
                    default -> {
                        for (i = 0; i < count; i++) {
                            sums[to + i] = Math.addExact(sums[to + i], (long) LONGS.get(bytes, 8 * (from + i)));
                        }
                    }
                }
            } catch (ArithmeticException overflow) {
                throw leaves64Bits(to + i);
            }
        }

        /** Adds {@code count} float lanes; a complex number is two lanes, real then imaginary. */
        private void addFloats(int to, int from, int count) {
            double[] sums = floats;
            byte[] bytes = gradient;
            for (int i = 0; i < count; i++) {
                sums[to + i] += (float) FLOATS.get(bytes, 4 * (from + i));
            }
        }

        private void addFloatRuns(int to, int from, int run, int runs, int stride) {
            double[] sums = floats;
            byte[] bytes = gradient;
            for (int k = 0; k < runs; k++) {
                int at = 4 * (from + k * stride);
                for (int i = 0; i < run; i++) {
                    sums[to + i] += (float) FLOATS.get(bytes, at + 4 * i);
                }
            }
        }

        private void addDoubleRuns(int to, int from, int run, int runs, int stride) {
            double[] sums = floats;
            byte[] bytes = gradient;
            for (int k = 0; k < runs; k++) {
                int at = 8 * (from + k * stride);
                for (int i = 0; i < run; i++) {
                    sums[to + i] += (double) DOUBLES.get(bytes, at + 8 * i);
                }
            }
        }

        private void addDoubles(int to, int from, int count) {
            double[] sums = floats;
            byte[] bytes = gradient;
            for (int i = 0; i < count; i++) {
                sums[to + i] += (double) DOUBLES.get(bytes, 8 * (from + i));
            }
        }

        private long integer(int index) {
            return switch (dtype) {
                case INT8 -> gradient[index];
                case UINT8 -> gradient[index] & 0xffL;
                case INT16 -> (short) SHORTS.get(gradient, 2 * index);
                case UINT16 -> (short) SHORTS.get(gradient, 2 * index) & 0xffffL;
                case INT32 -> (int) INTS.get(gradient, 4 * index);
                case UINT32 -> (int) INTS.get(gradient, 4 * index) & 0xffffffffL;
                default -> (long) LONGS.get(gradient, 8 * index);
            };
        }
    }
}
