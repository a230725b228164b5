package dev.tensorbroadcast.job.spark;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;

/** Writes small {@code .npy} files for tests, as numpy does (version 1.0, header padded to 64 bytes). */
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
        String dims = Arrays.stream(shape).mapToObj(Long::toString).collect(Collectors.joining(", "));
        String tuple = shape.length == 1 ? "(" + dims + ",)" : "(" + dims + ")";
        StringBuilder header = new StringBuilder("{'descr': '" + descr + "', 'fortran_order': False, 'shape': "
                + tuple + ", }");
        while ((10 + header.length() + 1) % 64 != 0) {
            header.append(' ');
        }
        header.append('\n');
        ByteBuffer bytes = ByteBuffer.allocate(10 + header.length() + data.length).order(ByteOrder.LITTLE_ENDIAN);
        bytes.put(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0});
        bytes.putShort((short) header.length());
        bytes.put(header.toString().getBytes(US_ASCII));
        bytes.put(data);
        Files.write(file, bytes.array());
        return file;
    }
}
