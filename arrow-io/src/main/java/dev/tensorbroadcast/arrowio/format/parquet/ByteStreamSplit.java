package dev.tensorbroadcast.arrowio.format.parquet;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.parquet.bytes.BytesInput;

/**
 * Parquet's BYTE_STREAM_SPLIT encoding of PLAIN floats: byte {@code k} of every value, for each {@code k} in turn.
 * The values themselves are unchanged, but bytes of like significance sit together, which a codec compresses much
 * better for floats (sign and exponent bytes repeat, mantissa bytes do not). One reused buffer per writer.
 */
final class ByteStreamSplit {
    private byte[] in = new byte[0];
    private byte[] out = new byte[0];

    /** {@code plain}'s values of {@code width} bytes, split into streams. Valid until the next call. */
    BytesInput split(BytesInput plain, int width) {
        int size = Math.toIntExact(plain.size());
        if (in.length < size) {
            in = new byte[size];
            out = new byte[size];
        }
        try {
            plain.toInputStream().readNBytes(in, 0, size);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int values = size / width;
        for (int k = 0; k < width; k++) {
            int stream = k * values;
            for (int i = 0, at = k; i < values; i++, at += width) {
                out[stream + i] = in[at];
            }
        }
        return BytesInput.from(out, 0, size);
    }
}
