package dev.tensorbroadcast.arrowio.format.zarr;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tensorbroadcast.arrowio.format.ArrayLayout;
import dev.tensorbroadcast.planner.DType;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A Zarr v3 {@code fill_value} as one element's little-endian bytes: a JSON boolean or number, {@code "NaN"},
 * {@code "Infinity"}, {@code "-Infinity"}, a {@code "0x..."} string of the value's bits, or for complex a pair of
 * those. A missing chunk reads as this value.
 */
final class ZarrFill {
    private ZarrFill() {}

    static byte[] of(JsonNode fill, DType dtype, String where) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(ArrayLayout.storedBytes(dtype)).order(ByteOrder.LITTLE_ENDIAN);
        try {
            switch (dtype) {
                case BOOL -> {
                    if (!fill.isBoolean()) {
                        throw refused(fill, dtype, where);
                    }
                    bytes.put((byte) (fill.asBoolean() ? 1 : 0));
                }
                case INT8, UINT8 -> bytes.put((byte) integer(fill, dtype, where));
                case INT16, UINT16 -> bytes.putShort((short) integer(fill, dtype, where));
                case INT32, UINT32 -> bytes.putInt((int) integer(fill, dtype, where));
                case INT64, UINT64 -> bytes.putLong(integer(fill, dtype, where));
                case FLOAT16 -> bytes.putShort((short) floatBits(fill, dtype, 2, where));
                case FLOAT32 -> bytes.putInt((int) floatBits(fill, dtype, 4, where));
                case FLOAT64 -> bytes.putLong(floatBits(fill, dtype, 8, where));
                case COMPLEX64, COMPLEX128 -> {
                    if (!fill.isArray() || fill.size() != 2) {
                        throw refused(fill, dtype, where);
                    }
                    int half = dtype == DType.COMPLEX64 ? 4 : 8;
                    for (JsonNode part : fill) {
                        long bits = floatBits(part, dtype, half, where);
                        if (half == 4) {
                            bytes.putInt((int) bits);
                        } else {
                            bytes.putLong(bits);
                        }
                    }
                }
                default -> throw refused(fill, dtype, where);
            }
        } catch (ArithmeticException | NumberFormatException e) {
            throw refused(fill, dtype, where);
        }
        return bytes.array();
    }

    private static long integer(JsonNode fill, DType dtype, String where) throws IOException {
        if (fill.isBoolean()) {
            return fill.asBoolean() ? 1 : 0;
        }
        if (!fill.isIntegralNumber()) {
            throw refused(fill, dtype, where);
        }
        BigInteger value = fill.bigIntegerValue();
        int bits = dtype.byteWidth() * 8;
        boolean unsigned = dtype.typeName().startsWith("u");
        BigInteger min =
                unsigned ? BigInteger.ZERO : BigInteger.ONE.shiftLeft(bits - 1).negate();
        BigInteger max = unsigned
                ? BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE)
                : BigInteger.ONE.shiftLeft(bits - 1).subtract(BigInteger.ONE);
        if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            throw refused(fill, dtype, where);
        }
        return value.longValue();
    }

    /** The bits of a float of {@code width} bytes. */
    private static long floatBits(JsonNode fill, DType dtype, int width, String where) throws IOException {
        if (fill.isTextual() && fill.asText().startsWith("0x")) {
            String hex = fill.asText().substring(2);
            if (hex.length() != width * 2) {
                throw refused(fill, dtype, where);
            }
            return Long.parseUnsignedLong(hex, 16);
        }
        double value;
        if (fill.isNumber()) {
            value = fill.asDouble();
        } else if (fill.isTextual()) {
            value = switch (fill.asText()) {
                case "NaN" -> Double.NaN;
                case "Infinity" -> Double.POSITIVE_INFINITY;
                case "-Infinity" -> Double.NEGATIVE_INFINITY;
                default -> throw refused(fill, dtype, where);
            };
        } else {
            throw refused(fill, dtype, where);
        }
        return switch (width) {
            case 8 -> Double.doubleToRawLongBits(value);
            case 4 -> Float.floatToRawIntBits((float) value) & 0xFFFFFFFFL;
            default -> half(value, fill, dtype, where);
        };
    }

    /** A float16's bits: zero, infinities and NaN; other values only as {@code "0x..."} bits. */
    private static long half(double value, JsonNode fill, DType dtype, String where) throws IOException {
        if (Double.isNaN(value)) {
            return 0x7e00;
        }
        if (value == 0) {
            return 1 / value < 0 ? 0x8000 : 0;
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? 0x7c00 : 0xfc00;
        }
        throw refused(fill, dtype, where);
    }

    private static IOException refused(JsonNode fill, DType dtype, String where) {
        return new IOException(where + ": fill_value " + fill + " for data_type " + dtype.typeName() + "; this tool"
                + " reads a JSON number, true/false, \"NaN\", \"Infinity\", \"-Infinity\" or \"0x\" bits (float16:"
                + " 0, the infinities, NaN or bits), a pair of those for complex");
    }
}
