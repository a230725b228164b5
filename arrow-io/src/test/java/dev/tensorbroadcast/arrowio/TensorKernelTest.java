package dev.tensorbroadcast.arrowio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TensorKernelTest {
    private BufferAllocator allocator;

    @BeforeEach
    void open() {
        allocator = new RootAllocator();
    }

    @AfterEach
    void close() {
        allocator.close();
    }

    @ParameterizedTest
    @EnumSource(DType.class)
    void randomBroadcastsAndRangesMatchTheReferenceMapping(DType dtype) {
        Random random = new Random(7919L * (dtype.ordinal() + 1));
        for (int trial = 0; trial < 300; trial++) {
            Shape[] shapes = RandomTensors.broadcast(random, trial < 150 ? 6 : 40);
            SourceTensor source = RandomTensors.source(random, dtype, shapes[0], random.nextBoolean());
            CopyProgram program = RandomTensors.program(shapes[0], shapes[1]);
            TensorKernel kernel = TensorKernel.of(source, program);
            long elements = program.elements();
            long start = random.nextInt(4) == 0 ? 0 : (long) (random.nextDouble() * elements);
            long end =
                    random.nextInt(4) == 0 ? elements : start + (long) (random.nextDouble() * (elements - start + 1));
            check(kernel, start, Math.min(end, elements), random);
        }
    }

    @ParameterizedTest
    @EnumSource(DType.class)
    void innerAndOuterBroadcastsOfEveryDtype(DType dtype) {
        Random random = new Random(dtype.ordinal());
        for (Shape[] shapes : new Shape[][] {
            {Shape.of(37, 1), Shape.of(37, 131)},
            {Shape.of(1, 129), Shape.of(9, 129)},
            {Shape.of(5, 1, 13), Shape.of(5, 11, 13)},
            {Shape.scalar(), Shape.of(3, 100)},
            {Shape.of(200), Shape.of(200)},
            {Shape.of(3, 1, 1), Shape.of(2, 3, 7, 9)}
        }) {
            for (boolean nulls : new boolean[] {false, true}) {
                SourceTensor source = RandomTensors.source(random, dtype, shapes[0], nulls);
                TensorKernel kernel = TensorKernel.of(source, RandomTensors.program(shapes[0], shapes[1]));
                long elements = shapes[1].elements();
                check(kernel, 0, elements, random);
                check(kernel, 3, elements - 5, random);
                check(kernel, elements / 3, elements / 3 + 1, random);
                check(kernel, elements / 2, elements / 2, random);
            }
        }
    }

    @Test
    void rejectsSourcesTooSmallAndBuffersTooSmall() {
        SourceTensor source = SourceTensor.fixedWidth(DType.INT32, Shape.of(3), new byte[12], null);
        assertThatThrownBy(() -> TensorKernel.of(source, RandomTensors.program(Shape.of(4), Shape.of(2, 4))))
                .hasMessage(
                        "Cannot fill program 2x(stride 0) 4x(stride 1) from source int32(3,): it reads element 3 of 3");
        TensorKernel kernel = TensorKernel.of(source, RandomTensors.program(Shape.of(3), Shape.of(2, 3)));
        try (ArrowBuf small = allocator.buffer(8)) {
            assertThatThrownBy(() -> kernel.fillValues(0, 6, small))
                    .hasMessage("the values buffer holds 8 bytes; the range needs 24");
            assertThatThrownBy(() -> kernel.fillValues(2, 7, small))
                    .hasMessage("range [2, 7) outside the output's [0, 6)");
        }
    }

    @Test
    void aSliceKernelFillsItsRangeFromTheSlicesRows() {
        // source [4,1,2] = 0..7 to [4,3,2]; rows 1..2 of the source are elements 2..5
        CopyProgram program = RandomTensors.program(Shape.of(4, 1, 2), Shape.of(4, 3, 2));
        java.nio.ByteBuffer rows = java.nio.ByteBuffer.allocate(16).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int value = 2; value < 6; value++) {
            rows.putInt(value);
        }
        SourceTensor slice = SourceTensor.fixedWidth(DType.INT32, Shape.of(2, 1, 2), rows.array(), null);

        TensorKernel kernel = TensorKernel.ofSlice(slice, program, 2, 6, 18);

        try (ArrowBuf values = allocator.buffer(48)) {
            kernel.fillValues(6, 18, values);
            int[] filled = new int[12];
            for (int i = 0; i < 12; i++) {
                filled[i] = values.getInt(4L * i);
            }
            assertThat(filled).containsExactly(2, 3, 2, 3, 2, 3, 4, 5, 4, 5, 4, 5);
            assertThatThrownBy(() -> kernel.fillValues(0, 6, values))
                    .hasMessage("range [0, 6) outside the output's [6, 18)");
        }
        assertThatThrownBy(() -> TensorKernel.ofSlice(slice, program, 2, 6, 20))
                .hasMessage("Cannot fill output elements [6, 20) from a slice of source elements [2, 6): they read"
                        + " [2, 8)");
    }

    @Test
    void stringOffsetsSayWhenABatchWouldOverflowInt32() {
        byte[] utf8 = new byte[1 << 20];
        SourceTensor source = SourceTensor.strings(Shape.of(1), new int[] {0, utf8.length}, utf8, null);
        TensorKernel kernel = TensorKernel.of(source, RandomTensors.program(Shape.of(1), Shape.of(4096)));
        try (ArrowBuf offsets = allocator.buffer(4097 * 4)) {
            assertThatThrownBy(() -> kernel.fillStringOffsets(0, 4096, offsets))
                    .hasMessage("a batch of strings holds at most 2147483647 bytes; this one needs 4294967296");
            assertThat(kernel.fillStringOffsets(0, 2047, offsets)).isEqualTo(2047 << 20);
        }
    }

    private void check(TensorKernel kernel, long start, long end, Random random) {
        SourceTensor source = kernel.source();
        CopyProgram program = kernel.program();
        DType dtype = source.dtype();
        int count = (int) (end - start);
        try (ArrowBuf validity = garbage((count + 7) / 8 + 1, random)) {
            kernel.fillValidity(start, end, validity);
            for (int i = 0; i < count; i++) {
                boolean valid = (validity.getByte(i >>> 3) & (1 << (i & 7))) != 0;
                if (valid != source.isValid(program.sourceIndex(start + i))) {
                    assertThat(valid)
                            .as("validity of %s element %d", source, start + i)
                            .isEqualTo(source.isValid(program.sourceIndex(start + i)));
                }
            }
        }
        if (dtype == DType.STRING) {
            try (ArrowBuf offsets = garbage((count + 1) * 4L, random)) {
                int bytes = kernel.fillStringOffsets(start, end, offsets);
                try (ArrowBuf data = garbage(bytes + 1, random)) {
                    kernel.fillStringData(start, end, offsets, data);
                    assertThat(offsets.getInt(0)).isZero();
                    for (int i = 0; i < count; i++) {
                        int from = offsets.getInt(i * 4L);
                        int to = offsets.getInt((i + 1) * 4L);
                        byte[] text = new byte[to - from];
                        data.getBytes(from, text);
                        String expected = RandomTensors.string(source, program.sourceIndex(start + i));
                        String actual = new String(text, StandardCharsets.UTF_8);
                        if (!actual.equals(expected)) {
                            assertThat(actual)
                                    .as("%s element %d", source, start + i)
                                    .isEqualTo(expected);
                        }
                    }
                }
            }
        } else if (dtype == DType.BOOL) {
            try (ArrowBuf values = garbage((count + 7) / 8 + 1, random)) {
                kernel.fillValues(start, end, values);
                for (int i = 0; i < count; i++) {
                    boolean expected = RandomTensors.bit(source.values(), program.sourceIndex(start + i));
                    boolean actual = (values.getByte(i >>> 3) & (1 << (i & 7))) != 0;
                    if (actual != expected) {
                        assertThat(actual)
                                .as("%s element %d", source, start + i)
                                .isEqualTo(expected);
                    }
                }
            }
        } else {
            int width = dtype.byteWidth();
            try (ArrowBuf values = garbage((long) count * width + 1, random)) {
                kernel.fillValues(start, end, values);
                byte[] actual = new byte[width];
                for (int i = 0; i < count; i++) {
                    values.getBytes((long) i * width, actual);
                    int from = (int) program.sourceIndex(start + i) * width;
                    for (int b = 0; b < width; b++) {
                        if (actual[b] != source.values()[from + b]) {
                            assertThat(actual)
                                    .as("%s element %d of range [%d, %d)", source, start + i, start, end)
                                    .isEqualTo(java.util.Arrays.copyOfRange(source.values(), from, from + width));
                        }
                    }
                }
            }
        }
    }

    private ArrowBuf garbage(long bytes, Random random) {
        ArrowBuf buffer = allocator.buffer(bytes);
        byte[] noise = new byte[(int) bytes];
        random.nextBytes(noise);
        buffer.setBytes(0, noise);
        return buffer;
    }
}
