package dev.tensorbroadcast.arrowio.format.parquet;

import dev.tensorbroadcast.arrowio.ArrowDTypes;
import dev.tensorbroadcast.arrowio.Bits;
import dev.tensorbroadcast.planner.DType;
import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.parquet.bytes.BytesInput;

/**
 * PLAIN-encodes a range of an Arrow values vector for a Parquet data page. Where Parquet's layout is Arrow's (every
 * 4- and 8-byte type, float16, bool at a byte boundary) and no value is null, the page reads the Arrow buffer in
 * place; otherwise one reused heap buffer holds the widened (8- and 16-bit ints), shifted (bools) or compacted (nulls
 * dropped) values.
 */
final class PlainValues {
    private final DType dtype;
    private byte[] scratch = new byte[0];

    PlainValues(DType dtype) {
        this.dtype = dtype;
    }

    /**
     * The non-null values of elements {@code [from, to)}; {@code nulls} says whether the vector has any null (the
     * caller counts them once per batch). The bytes may be a reused buffer, valid until the next call.
     */
    BytesInput encode(FieldVector values, boolean nulls, long from, long to) {
        ArrowBuf validity = values.getValidityBuffer();
        return switch (dtype) {
            case BOOL -> bools(values.getDataBuffer(), validity, nulls, from, to);
            case INT8, UINT8 -> widen(values.getDataBuffer(), validity, nulls, from, to, 1, dtype == DType.INT8);
            case INT16, UINT16, BFLOAT16 ->
                widen(values.getDataBuffer(), validity, nulls, from, to, 2, dtype == DType.INT16);
            case STRING -> strings((VarCharVector) values, validity, nulls, from, to);
            default -> fixed(values.getDataBuffer(), validity, nulls, from, to, ArrowDTypes.storageByteWidth(dtype));
        };
    }

    /** Bits per element for cutting pages: exact for fixed widths (bools are bit-packed), the average for strings. */
    static long sizingBits(DType dtype, FieldVector values) {
        if (dtype == DType.BOOL) {
            return 1;
        }
        if (dtype == DType.STRING) {
            int count = values.getValueCount();
            long bytes =
                    count == 0 ? 0 : ((VarCharVector) values).getOffsetBuffer().getInt((long) count * 4);
            return 8 * (4 + (count == 0 ? 0 : bytes / count));
        }
        return 8L * ArrowDTypes.storageByteWidth(dtype);
    }

    private BytesInput fixed(ArrowBuf data, ArrowBuf validity, boolean nulls, long from, long to, int width) {
        if (!nulls) {
            return BytesInput.from(data.nioBuffer(from * width, Math.toIntExact((to - from) * width)));
        }
        byte[] out = scratch(Math.toIntExact((to - from) * width));
        int size = 0;
        for (long i = from; i < to; i++) {
            if (Bits.get(validity, i)) {
                data.getBytes(i * width, out, size, width);
                size += width;
            }
        }
        return BytesInput.from(out, 0, size);
    }

    private BytesInput widen(
            ArrowBuf data, ArrowBuf validity, boolean nulls, long from, long to, int width, boolean signed) {
        byte[] out = scratch(Math.toIntExact((to - from) * 4));
        int size = 0;
        for (long i = from; i < to; i++) {
            if (nulls && !Bits.get(validity, i)) {
                continue;
            }
            int value;
            if (width == 1) {
                byte b = data.getByte(i);
                value = signed ? b : b & 0xFF;
            } else {
                short s = data.getShort(i * 2);
                value = signed ? s : s & 0xFFFF;
            }
            out[size] = (byte) value;
            out[size + 1] = (byte) (value >>> 8);
            out[size + 2] = (byte) (value >>> 16);
            out[size + 3] = (byte) (value >>> 24);
            size += 4;
        }
        return BytesInput.from(out, 0, size);
    }

    private BytesInput bools(ArrowBuf data, ArrowBuf validity, boolean nulls, long from, long to) {
        if (!nulls && (from & 7) == 0) {
            return BytesInput.from(data.nioBuffer(from >>> 3, Math.toIntExact((to - from + 7) >>> 3)));
        }
        byte[] out = scratch(Math.toIntExact((to - from + 7) >>> 3));
        Arrays.fill(out, 0, out.length, (byte) 0);
        long bit = 0;
        for (long i = from; i < to; i++) {
            if (nulls && !Bits.get(validity, i)) {
                continue;
            }
            if (Bits.get(data, i)) {
                out[(int) (bit >>> 3)] |= (byte) (1 << (bit & 7));
            }
            bit++;
        }
        return BytesInput.from(out, 0, (int) ((bit + 7) >>> 3));
    }

    private BytesInput strings(VarCharVector vector, ArrowBuf validity, boolean nulls, long from, long to) {
        ArrowBuf offsets = vector.getOffsetBuffer();
        ArrowBuf data = vector.getDataBuffer();
        long start = offsets.getInt(from * 4);
        long end = offsets.getInt(to * 4);
        byte[] out = scratch(Math.toIntExact(end - start + (to - from) * 4));
        int size = 0;
        for (long i = from; i < to; i++) {
            if (nulls && !Bits.get(validity, i)) {
                continue;
            }
            int offset = offsets.getInt(i * 4);
            int length = offsets.getInt(i * 4 + 4) - offset;
            out[size] = (byte) length;
            out[size + 1] = (byte) (length >>> 8);
            out[size + 2] = (byte) (length >>> 16);
            out[size + 3] = (byte) (length >>> 24);
            data.getBytes(offset, out, size + 4, length);
            size += 4 + length;
        }
        return BytesInput.from(out, 0, size);
    }

    private byte[] scratch(int size) {
        if (scratch.length < size) {
            scratch = new byte[Math.max(size, scratch.length * 2)];
        }
        return scratch;
    }
}
