package dev.tensorbroadcast.arrowio.format.npy;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.arrowio.format.SourceLimits;
import dev.tensorbroadcast.arrowio.source.TensorValues;
import dev.tensorbroadcast.planner.DType;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * Hostile {@code .npy} bytes: the reader either refuses them with one {@link SourceFormatException} line, or returns
 * a tensor that is exactly the file's data. Runs over the committed inputs in {@code NpyReaderFuzzTestInputs} in every
 * build; {@code fuzz/run.sh} fuzzes it (see {@code docs/reliability.md}).
 */
class NpyReaderFuzzTest {
    private static final NpyReader READER = new NpyReader(SourceLimits.defaults());

    @FuzzTest(maxDuration = "5m")
    void readsOrRefusesCleanly(byte[] file) throws IOException {
        // a known length is checked against the header up front; an unknown one is found out while reading
        SourceTensor known = read(file, file.length);
        SourceTensor streamed = read(file, NpyReader.UNKNOWN_LENGTH);
        assertThat(streamed == null)
                .as("accepted with a known length but not a streamed one")
                .isEqualTo(known == null);
        if (known == null) {
            return;
        }
        assertSame(streamed, known);
        assertHoldsTheFileData(file, known);
        assertSame(
                new NpyReader(SourceLimits.defaults())
                        .read("again.npy", new ByteArrayInputStream(canonical(known)), NpyReader.UNKNOWN_LENGTH),
                known);
    }

    /** The tensor read, or null when the reader refused the file with a clean one-line message. */
    private static SourceTensor read(byte[] file, long length) throws IOException {
        try {
            return READER.read("fuzz.npy", new ByteArrayInputStream(file), length);
        } catch (SourceFormatException e) {
            assertThat(e.getMessage()).startsWith("Cannot read fuzz.npy: ").doesNotContain("\n", "\r");
            return null;
        }
    }

    private static void assertSame(SourceTensor actual, SourceTensor expected) {
        assertThat(actual.dtype()).isEqualTo(expected.dtype());
        assertThat(actual.shape()).isEqualTo(expected.shape());
        assertThat(TensorValues.of(actual)).isEqualTo(TensorValues.of(expected));
    }

    /**
     * An oracle independent of the header parser: the file ends with exactly one element's bytes per element of the
     * shape, and these are the tensor's values in some order (C or Fortran) and byte order (each component as it is,
     * or reversed).
     */
    private static void assertHoldsTheFileData(byte[] file, SourceTensor tensor) {
        int lengthBytes = file[6] == 1 ? 2 : 4;
        long headerLength = 0;
        for (int i = lengthBytes - 1; i >= 0; i--) {
            headerLength = headerLength << 8 | (file[8 + i] & 0xFF);
        }
        int dataStart = (int) (8 + lengthBytes + headerLength);
        byte[] data = Arrays.copyOfRange(file, dataStart, file.length);
        long elements = tensor.elements();
        DType dtype = tensor.dtype();
        if (dtype == DType.STRING) {
            assertThat(elements == 0 ? data.length : data.length % elements).isZero();
            return;
        }
        int width = dtype == DType.BOOL ? 1 : dtype.byteWidth();
        assertThat((long) data.length).as("data bytes of %s elements", elements).isEqualTo(elements * width);
        if (dtype == DType.BOOL) {
            long set = 0;
            for (byte b : data) {
                set += b != 0 ? 1 : 0;
            }
            long bits = 0;
            for (int i = 0; i < elements; i++) {
                bits += tensor.values()[i >>> 3] >>> (i & 7) & 1;
            }
            assertThat(bits).isEqualTo(set);
            return;
        }
        int component = dtype == DType.COMPLEX64 || dtype == DType.COMPLEX128 ? width / 2 : width;
        List<String> fromFile = chunks(data, component, false);
        assertThat(chunks(tensor.values(), component, false).equals(fromFile)
                        || chunks(tensor.values(), component, true).equals(fromFile))
                .as("the tensor's values are the file's data")
                .isTrue();
    }

    /** The {@code width}-byte chunks of {@code bytes}, each reversed if asked, sorted. */
    private static List<String> chunks(byte[] bytes, int width, boolean reversed) {
        List<String> chunks = new ArrayList<>(bytes.length / width);
        for (int at = 0; at < bytes.length; at += width) {
            byte[] chunk = Arrays.copyOfRange(bytes, at, at + width);
            if (reversed) {
                for (int i = 0; i < width / 2; i++) {
                    byte b = chunk[i];
                    chunk[i] = chunk[width - 1 - i];
                    chunk[width - 1 - i] = b;
                }
            }
            chunks.add(HexFormat.of().formatHex(chunk));
        }
        chunks.sort(null);
        return chunks;
    }

    /** The tensor as numpy would save it: little-endian, C order, strings as UTF-32 ({@code <U}). */
    private static byte[] canonical(SourceTensor tensor) {
        int count = (int) tensor.elements();
        String descr;
        ByteBuffer data;
        if (tensor.dtype() == DType.STRING) {
            List<int[]> strings = new ArrayList<>(count);
            int longest = 1;
            for (int i = 0; i < count; i++) {
                int[] codePoints = new String(
                                tensor.values(),
                                tensor.offsets()[i],
                                tensor.offsets()[i + 1] - tensor.offsets()[i],
                                StandardCharsets.UTF_8)
                        .codePoints()
                        .toArray();
                strings.add(codePoints);
                longest = Math.max(longest, codePoints.length);
            }
            descr = "<U" + longest;
            data = ByteBuffer.allocate(count * longest * 4).order(ByteOrder.LITTLE_ENDIAN);
            for (int[] codePoints : strings) {
                int start = data.position();
                for (int codePoint : codePoints) {
                    data.putInt(codePoint);
                }
                data.position(start + longest * 4);
            }
        } else if (tensor.dtype() == DType.BOOL) {
            descr = "|b1";
            data = ByteBuffer.allocate(count);
            for (int i = 0; i < count; i++) {
                data.put((byte) (tensor.values()[i >>> 3] >>> (i & 7) & 1));
            }
        } else {
            descr = "<"
                    + switch (tensor.dtype()) {
                        case INT8 -> "i1";
                        case INT16 -> "i2";
                        case INT32 -> "i4";
                        case INT64 -> "i8";
                        case UINT8 -> "u1";
                        case UINT16 -> "u2";
                        case UINT32 -> "u4";
                        case UINT64 -> "u8";
                        case FLOAT16 -> "f2";
                        case FLOAT32 -> "f4";
                        case FLOAT64 -> "f8";
                        case COMPLEX64 -> "c8";
                        case COMPLEX128 -> "c16";
                        default -> throw new AssertionError("the .npy reader never makes " + tensor.dtype());
                    };
            data = ByteBuffer.wrap(tensor.values());
        }
        String shape = tensor.shape().rank() == 1
                ? "(" + tensor.shape().dim(0) + ",)"
                : tensor.shape().toString();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(NpyReaderTest.npy(
                1,
                "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }",
                ByteBuffer.allocate(0)));
        out.writeBytes(data.array());
        return out.toByteArray();
    }
}
