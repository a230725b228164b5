package dev.tensorbroadcast.arrowio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.io.ByteArrayOutputStream;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A kernel over a source in a file ({@link SourceTensor#inFile}) fills what the same kernel over the heap fills: long
 * runs read straight into the target, short ones through windows read ahead, in any order.
 */
class FileSourceTest {
    @TempDir
    Path dir;

    @Test
    void aFileSourceFillsWhatTheHeapSourceFills() throws Exception {
        // 6,000,000 int32 (24 MB, three windows) as [3000, 2000] rows of a slice from row 1000 of [4000, 2000]
        Shape rows = Shape.of(3000, 2000);
        byte[] values = new byte[Math.toIntExact(rows.elements() * 4)];
        new Random(41).nextBytes(values);
        Path file = Files.write(dir.resolve("values"), values);
        Shape output = Shape.of(4000, 2000);
        CopyProgram identity = CopyProgram.of(output, output.strides());
        long origin = 1000L * 2000;
        TensorKernel heap = TensorKernel.ofSlice(
                SourceTensor.fixedWidth(DType.INT32, rows, values, null), identity, origin, origin, output.elements());
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
                BufferAllocator allocator = new RootAllocator();
                ArrowBuf expected = allocator.buffer(values.length);
                ArrowBuf actual = allocator.buffer(values.length)) {
            TensorKernel inFile = TensorKernel.ofSlice(
                    SourceTensor.inFile(DType.INT32, rows, channel), identity, origin, origin, output.elements());
            Random random = new Random(7);
            long[][] ranges = {
                {origin, output.elements()}, // the whole slice: straight into the target
                {origin, origin + 1}, // one element, then the window's next ones
                {origin + 5, origin + 3000}, // 11,980 bytes: from the window
                {origin + 3000, origin + 7096}, // 16 KiB: straight into the target
                {output.elements() - 10, output.elements()}, // the file's last bytes: a short window
                {origin + 2_100_000, origin + 2_100_000 + FileValues.DIRECT_BYTES / 4 - 1}, // a new window
                // across that window's end: read again
                {
                    origin + 2_100_000 + FileValues.WINDOW_BYTES / 4 - 3,
                    origin + 2_100_000 + FileValues.WINDOW_BYTES / 4 + 3
                },
                {origin + 17, origin + 19} // back before the window
            };
            for (long[] range : ranges) {
                assertSameFill(heap, inFile, range[0], range[1], expected, actual);
            }
            for (int trial = 0; trial < 200; trial++) {
                long start = origin + (long) (random.nextDouble() * rows.elements());
                long end = Math.min(output.elements(), start + random.nextInt(trial % 2 == 0 ? 5000 : 3_000_000));
                assertSameFill(heap, inFile, start, end, expected, actual);
            }
        }
    }

    @Test
    void onlyFixedWidthValuesThatTheFileHoldsAreASourceInAFile() throws Exception {
        Path file = Files.write(dir.resolve("values"), new byte[12]);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            assertThatThrownBy(() -> SourceTensor.inFile(DType.BOOL, Shape.of(8), channel))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("a source in a file holds fixed-width values, not bool");
            assertThatThrownBy(() -> SourceTensor.inFile(DType.INT32, Shape.of(2, 2), channel))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("int32 (2,2) needs 16 value bytes; the file holds 12");
            SourceTensor source = SourceTensor.inFile(DType.INT32, Shape.of(3), channel);
            assertThatThrownBy(source::values)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("the values of " + source + " are in a file");
            assertThatThrownBy(() -> new ObjectOutputStream(new ByteArrayOutputStream()).writeObject(source))
                    .isInstanceOf(NotSerializableException.class)
                    .hasMessage("a source tensor in a file stays in its process");
        }
    }

    private static void assertSameFill(
            TensorKernel heap, TensorKernel inFile, long start, long end, ArrowBuf expected, ArrowBuf actual) {
        long bytes = (end - start) * 4;
        expected.setZero(0, bytes);
        actual.setOne(0, bytes);
        heap.fillValues(start, end, expected);
        inFile.fillValues(start, end, actual);
        ByteBuffer want = expected.nioBuffer(0, (int) bytes);
        ByteBuffer got = actual.nioBuffer(0, (int) bytes);
        assertThat(got.equals(want)).as("[%d, %d)", start, end).isTrue();
    }
}
