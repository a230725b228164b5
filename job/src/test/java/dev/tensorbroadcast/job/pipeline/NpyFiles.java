package dev.tensorbroadcast.job.pipeline;

import dev.tensorbroadcast.job.sink.NpyWriter;
import dev.tensorbroadcast.planner.Shape;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/** Writes small {@code .npy} files for tests, with the header numpy writes ({@link NpyWriter}). */
public final class NpyFiles {
    private NpyFiles() {}

    /** An int32 tensor whose element {@code i} is {@code value(i)}. */
    public static Path int32(Path file, long[] shape) throws IOException {
        long elements = Arrays.stream(shape).reduce(1, (a, b) -> a * b);
        ByteBuffer data = ByteBuffer.allocate(Math.toIntExact(4 * elements)).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < elements; i++) {
            data.putInt(value(i));
        }
        return write(file, "<i4", shape, data.array());
    }

    /** The value the test sources hold at source index {@code i}: distinct, so every lookup is checked. */
    public static int value(long i) {
        return Math.toIntExact(i * 7 + 3);
    }

    public static Path write(Path file, String descr, long[] shape, byte[] data) throws IOException {
        byte[] header = NpyWriter.header(descr, Shape.of(shape));
        byte[] bytes = Arrays.copyOf(header, header.length + data.length);
        System.arraycopy(data, 0, bytes, header.length, data.length);
        Files.write(file, bytes);
        return file;
    }
}
