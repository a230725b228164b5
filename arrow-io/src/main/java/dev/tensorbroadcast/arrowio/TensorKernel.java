package dev.tensorbroadcast.arrowio;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.CopySink;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Materializes ranges of a broadcast output into Arrow buffers: runs the {@link CopyProgram} with sinks that copy
 * whole runs from the source (on the heap, or in a file read a window at a time) and repeat blocks by doubling inside the destination. Each fill checks the
 * destination's capacity once, then works on raw addresses. Ranges are in output elements; the destination always
 * starts at the range's first element (index 0 of the buffers).
 *
 * <p>Not thread-safe: the sinks are reused across calls so that a batch allocates nothing. Use one kernel per task.
 */
public final class TensorKernel {
    private final SourceTensor source;
    private final CopyProgram program;
    private final FixedWidthSink fixedWidth;
    private final BitSink valueBits;
    private final BitSink validityBits;
    /** Complex with nulls: the program over (real, imaginary) storage values, with a validity bit per value. */
    private final CopyProgram storageProgram;

    private final BitSink storageValidityBits;
    private final StringOffsetsSink stringOffsets;
    private final StringDataSink stringData;
    private final int maxStringBytes;
    /** The source element that {@link #source} starts at: 0, or the first element of a slice's rows. */
    private final long sourceOrigin;
    /** The output elements this kernel may fill: all, or those whose source elements a slice holds. */
    private final long rangeStart;

    private final long rangeEnd;

    private TensorKernel(SourceTensor source, CopyProgram program, long sourceOrigin, long rangeStart, long rangeEnd) {
        this.source = source;
        this.program = program;
        this.sourceOrigin = sourceOrigin;
        this.rangeStart = rangeStart;
        this.rangeEnd = rangeEnd;
        DType dtype = source.dtype();
        if (source.file() != null) {
            // fixed-width values without nulls, as inFile checked
            this.fixedWidth = new FixedWidthSink(
                    new FileValues(source.file(), source.elements() * dtype.byteWidth()), dtype.byteWidth());
        } else {
            this.fixedWidth = dtype.isFixedWidth() && dtype != DType.BOOL
                    ? new FixedWidthSink(source.values(), dtype.byteWidth())
                    : null;
        }
        this.valueBits = dtype == DType.BOOL ? new BitSink(source.values()) : null;
        this.validityBits = source.hasNulls() ? new BitSink(source.validity()) : null;
        if (ArrowDTypes.isComplex(dtype) && source.hasNulls()) {
            this.storageProgram = storageProgram(program);
            this.storageValidityBits = new BitSink(pairBits(source.validity(), source.elements()));
        } else {
            this.storageProgram = null;
            this.storageValidityBits = null;
        }
        if (dtype == DType.STRING) {
            this.stringOffsets = new StringOffsetsSink(source.offsets());
            this.stringData = new StringDataSink(source.values(), source.offsets());
            int[] offsets = source.offsets();
            int max = 0;
            for (int i = 1; i < offsets.length; i++) {
                max = Math.max(max, offsets[i] - offsets[i - 1]);
            }
            this.maxStringBytes = max;
        } else {
            this.stringOffsets = null;
            this.stringData = null;
            this.maxStringBytes = 0;
        }
    }

    /** A kernel that fills outputs of {@code program} from {@code source}, which must hold every element it reads. */
    public static TensorKernel of(SourceTensor source, CopyProgram program) {
        requireNonNull(source, "source is null");
        requireNonNull(program, "program is null");
        if (program.elements() > 0) {
            long[] counts = program.counts();
            long[] strides = program.strides();
            long last = 0;
            for (int level = 0; level < counts.length; level++) {
                last += (counts[level] - 1) * strides[level];
            }
            if (last >= source.elements()) {
                throw new IllegalArgumentException("Cannot fill program " + program + " from source " + source
                        + ": it reads element " + last + " of " + source.elements());
            }
        }
        return new TensorKernel(source, program, 0, 0, program.elements());
    }

    /**
     * A kernel that fills output elements {@code [start, end)} of {@code program} from {@code slice}, which holds the
     * source from element {@code sourceOrigin} on. Runs the program over the range once to check that every element
     * it reads is in the slice, so a wrong slice is an error, never a read outside the heap array.
     */
    public static TensorKernel ofSlice(
            SourceTensor slice, CopyProgram program, long sourceOrigin, long start, long end) {
        requireNonNull(slice, "slice is null");
        requireNonNull(program, "program is null");
        long[] reach = {Long.MAX_VALUE, Long.MIN_VALUE};
        program.run(start, end, sourceOrigin, new CopySink() {
            @Override
            public void copy(long sourceOffset, long targetOffset, long length) {
                reach[0] = Math.min(reach[0], sourceOffset);
                reach[1] = Math.max(reach[1], sourceOffset + length);
            }

            @Override
            public void repeat(long targetOffset, long blockLength, long times) {}
        });
        if (start < end && (reach[0] < 0 || reach[1] > slice.elements())) {
            throw new IllegalArgumentException("Cannot fill output elements [" + start + ", " + end + ") from a slice"
                    + " of source elements [" + sourceOrigin + ", " + (sourceOrigin + slice.elements()) + "): they"
                    + " read [" + (sourceOrigin + reach[0]) + ", " + (sourceOrigin + reach[1]) + ")");
        }
        return new TensorKernel(slice, program, sourceOrigin, start, end);
    }

    public SourceTensor source() {
        return source;
    }

    /** Whether this kernel reads its source from element 0 for the whole output, not for a task's range alone. */
    public boolean readsWholeSource() {
        return sourceOrigin == 0 && rangeStart == 0 && rangeEnd == program.elements();
    }

    public CopyProgram program() {
        return program;
    }

    public DType dtype() {
        return source.dtype();
    }

    /** The longest string of the source in bytes (0 for other types): bounds the data of a range before filling it. */
    public int maxStringBytes() {
        return maxStringBytes;
    }

    /**
     * Fills the values of fixed-width output elements {@code [start, end)}: {@code (end - start) * byteWidth} bytes,
     * or for {@code bool} {@code ceil((end - start) / 8)} bytes of bits.
     */
    public void fillValues(long start, long end, ArrowBuf values) {
        DType dtype = source.dtype();
        if (dtype == DType.STRING) {
            throw new IllegalStateException("string values are filled with fillStringOffsets and fillStringData");
        }
        long count = checkRange(start, end);
        if (dtype == DType.BOOL) {
            checkCapacity(values, (count + 7) >>> 3, "values");
            valueBits.target(values.memoryAddress());
            program.run(start, end, sourceOrigin, valueBits);
        } else {
            checkCapacity(values, count * dtype.byteWidth(), "values");
            fixedWidth.target(values.memoryAddress());
            program.run(start, end, sourceOrigin, fixedWidth);
        }
    }

    /**
     * First pass over a string range: writes {@code end - start + 1} int32 offsets and returns the number of data
     * bytes the range needs, which {@link #fillStringData} then fills.
     */
    public int fillStringOffsets(long start, long end, ArrowBuf offsets) {
        checkString();
        long count = checkRange(start, end);
        checkCapacity(offsets, (count + 1) << 2, "offsets");
        long address = offsets.memoryAddress();
        MemoryUtil.putInt(address, 0);
        stringOffsets.target(address);
        program.run(start, end, sourceOrigin, stringOffsets);
        return MemoryUtil.getInt(address + (count << 2));
    }

    /** Second pass over a string range: copies the UTF-8 bytes where {@link #fillStringOffsets} placed them. */
    public void fillStringData(long start, long end, ArrowBuf offsets, ArrowBuf data) {
        checkString();
        long count = checkRange(start, end);
        checkCapacity(offsets, (count + 1) << 2, "offsets");
        checkCapacity(data, offsets.getInt(count << 2), "data");
        stringData.target(offsets.memoryAddress(), data.memoryAddress());
        program.run(start, end, sourceOrigin, stringData);
    }

    /** Fills the validity bits of {@code [start, end)}: the source's nulls, or all ones when it has none. */
    public void fillValidity(long start, long end, ArrowBuf validity) {
        long count = checkRange(start, end);
        checkCapacity(validity, (count + 7) >>> 3, "validity");
        if (validityBits == null) {
            Bits.fill(validity.memoryAddress(), 0, count, true);
        } else {
            validityBits.target(validity.memoryAddress());
            program.run(start, end, sourceOrigin, validityBits);
        }
    }

    /**
     * Fills the validity bits of the stored values of {@code [start, end)}: as {@link #fillValidity}, except for
     * complex types, stored as two values each, whose every element gets two equal bits.
     */
    public void fillStorageValidity(long start, long end, ArrowBuf validity) {
        if (!ArrowDTypes.isComplex(source.dtype())) {
            fillValidity(start, end, validity);
            return;
        }
        long count = checkRange(start, end) * 2;
        checkCapacity(validity, (count + 7) >>> 3, "validity");
        if (storageValidityBits == null) {
            Bits.fill(validity.memoryAddress(), 0, count, true);
        } else {
            storageValidityBits.target(validity.memoryAddress());
            storageProgram.run(start * 2, end * 2, sourceOrigin * 2, storageValidityBits);
        }
    }

    /** The same nest over values twice as many: every level's stride doubles and a last level walks the pair. */
    private static CopyProgram storageProgram(CopyProgram program) {
        long[] counts = program.counts();
        long[] strides = program.strides();
        long[] dims = Arrays.copyOf(counts, counts.length + 1);
        long[] doubled = new long[counts.length + 1];
        for (int level = 0; level < counts.length; level++) {
            doubled[level] = strides[level] * 2;
        }
        dims[counts.length] = 2;
        doubled[counts.length] = 1;
        return CopyProgram.of(Shape.of(dims), doubled);
    }

    /** A bitmap with each bit of {@code bits} twice: the validity of (real, imaginary) pairs. */
    private static byte[] pairBits(byte[] bits, long elements) {
        byte[] pairs = new byte[(int) ((elements * 2 + 7) >>> 3)];
        for (long i = 0; i < elements; i++) {
            if (Bits.get(bits, i)) {
                pairs[(int) (i >>> 2)] |= (byte) (3 << ((i & 3) << 1));
            }
        }
        return pairs;
    }

    private long checkRange(long start, long end) {
        if (start < rangeStart || end < start || end > rangeEnd) {
            throw new IndexOutOfBoundsException(
                    "range [" + start + ", " + end + ") outside the output's [" + rangeStart + ", " + rangeEnd + ")");
        }
        return end - start;
    }

    private void checkString() {
        if (source.dtype() != DType.STRING) {
            throw new IllegalStateException(source.dtype() + " values are filled with fillValues");
        }
    }

    private static void checkCapacity(ArrowBuf buffer, long bytes, String what) {
        if (buffer.capacity() < bytes) {
            throw new IllegalArgumentException(
                    "the " + what + " buffer holds " + buffer.capacity() + " bytes; the range needs " + bytes);
        }
    }
}
