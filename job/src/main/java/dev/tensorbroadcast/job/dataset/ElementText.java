package dev.tensorbroadcast.job.dataset;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.tensorbroadcast.arrowio.format.ElementBatch;
import org.apache.arrow.memory.ArrowBuf;

/** One element of a batch as text, for messages that show expected and found values. */
public final class ElementText {
    private static final int MAX_STRING_CHARS = 40;

    private ElementText() {}

    static String of(ElementBatch batch, int index) {
        if (!batch.isValid(index)) {
            return "null";
        }
        ArrowBuf values = batch.values();
        return switch (batch.dtype()) {
            case BOOL -> Boolean.toString(batch.bit(index));
            case INT8 -> Byte.toString(values.getByte(index));
            case UINT8 -> Integer.toString(values.getByte(index) & 0xFF);
            case INT16 -> Short.toString(values.getShort(2L * index));
            case UINT16 -> Integer.toString(values.getShort(2L * index) & 0xFFFF);
            case INT32 -> Integer.toString(values.getInt(4L * index));
            case UINT32 -> Integer.toUnsignedString(values.getInt(4L * index));
            case INT64 -> Long.toString(values.getLong(8L * index));
            case UINT64 -> Long.toUnsignedString(values.getLong(8L * index));
            case FLOAT16 -> Float.toString(halfToFloat(values.getShort(2L * index)));
            case BFLOAT16 -> Float.toString(Float.intBitsToFloat((values.getShort(2L * index) & 0xFFFF) << 16));
            case FLOAT32 -> Float.toString(values.getFloat(4L * index));
            case FLOAT64 -> Double.toString(values.getDouble(8L * index));
            case COMPLEX64 ->
                complex(Float.toString(values.getFloat(8L * index)), Float.toString(values.getFloat(8L * index + 4)));
            case COMPLEX128 ->
                complex(
                        Double.toString(values.getDouble(16L * index)),
                        Double.toString(values.getDouble(16L * index + 8)));
            case STRING -> string(batch, index);
        };
    }

    /**
     * IEEE 754 binary16, as its 16 bits, to float: exact, since every half value is a float; infinities stay
     * infinite and NaNs keep their payload.
     */
    public static float halfToFloat(short half) {
        int bits = half & 0xFFFF;
        int sign = (bits & 0x8000) << 16;
        int exponent = (bits >>> 10) & 0x1F;
        int mantissa = bits & 0x3FF;
        if (exponent == 0x1F) {
            return Float.intBitsToFloat(sign | 0x7F800000 | (mantissa << 13));
        }
        if (exponent == 0) {
            float subnormal = mantissa * 0x1p-24f;
            return sign == 0 ? subnormal : -subnormal;
        }
        return Float.intBitsToFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
    }

    private static String complex(String real, String imaginary) {
        return "(" + real + (imaginary.startsWith("-") ? "" : "+") + imaginary + "j)";
    }

    private static String string(ElementBatch batch, int index) {
        int start = batch.offsets().getInt(4L * index);
        int end = batch.offsets().getInt(4L * (index + 1));
        byte[] bytes = new byte[end - start];
        batch.data().getBytes(start, bytes);
        String text = new String(bytes, UTF_8);
        if (text.length() > MAX_STRING_CHARS) {
            text = text.substring(0, MAX_STRING_CHARS) + "...";
        }
        return "'" + text + "'";
    }
}
