package dev.tensorbroadcast.job.sink;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import dev.tensorbroadcast.arrowio.format.npy.NpyReader;
import dev.tensorbroadcast.planner.Shape;
import java.io.ByteArrayOutputStream;

/**
 * The {@code .npy} preamble and header numpy writes: version 1.0, or 2.0 when the header does not fit 1.0's 16-bit
 * length; the whole preamble padded with spaces to a multiple of 64 bytes and ended by a newline, so the data that
 * follows is aligned.
 */
public final class NpyWriter {
    private static final byte[] MAGIC = NpyReader.magic();
    private static final int ALIGNMENT = 64;

    private NpyWriter() {}

    /** Everything before the data of a C-order array of {@code descr} (such as {@code <f4}) and {@code shape}. */
    public static byte[] header(String descr, Shape shape) {
        StringBuilder dict = new StringBuilder("{'descr': '")
                .append(descr)
                .append("', 'fortran_order': False,")
                .append(" 'shape': (");
        for (int axis = 0; axis < shape.rank(); axis++) {
            dict.append(shape.dim(axis))
                    .append(axis == 0 && shape.rank() == 1 ? ",)" : axis == shape.rank() - 1 ? ")" : ", ");
        }
        if (shape.rank() == 0) {
            dict.append(')');
        }
        dict.append(", }");
        int version = 1;
        int lengthBytes = 2;
        int unpadded = MAGIC.length + 2 + lengthBytes + dict.length() + 1;
        int padded = (unpadded + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
        if (padded - MAGIC.length - 2 - lengthBytes > 0xFFFF) {
            version = 2;
            lengthBytes = 4;
            unpadded = MAGIC.length + 2 + lengthBytes + dict.length() + 1;
            padded = (unpadded + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
        }
        dict.append(" ".repeat(padded - unpadded)).append('\n');
        int headerLength = padded - MAGIC.length - 2 - lengthBytes;
        ByteArrayOutputStream out = new ByteArrayOutputStream(padded);
        out.writeBytes(MAGIC);
        out.write(version);
        out.write(0);
        for (int i = 0; i < lengthBytes; i++) {
            out.write(headerLength >>> (8 * i));
        }
        out.writeBytes(dict.toString().getBytes(ISO_8859_1));
        return out.toByteArray();
    }
}
