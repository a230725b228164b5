package dev.tensorbroadcast.arrowio.reduce;

/**
 * float16 and bfloat16 to and from double. A sum is kept in double and rounded once, straight to the 16-bit type
 * (to nearest, ties to even), never through float, which would round twice.
 */
public final class HalfFloats {
    private HalfFloats() {}

    public static double halfToDouble(short bits) {
        int sign = bits & 0x8000;
        int exponent = (bits >>> 10) & 0x1f;
        int mantissa = bits & 0x3ff;
        double magnitude;
        if (exponent == 0x1f) {
            magnitude = mantissa == 0 ? Double.POSITIVE_INFINITY : Double.NaN;
        } else if (exponent == 0) {
            magnitude = Math.scalb((double) mantissa, -24);
        } else {
            magnitude = Math.scalb((double) (mantissa | 0x400), exponent - 25);
        }
        return sign == 0 ? magnitude : -magnitude;
    }

    public static short doubleToHalf(double value) {
        int sign = Double.doubleToRawLongBits(value) < 0 ? 0x8000 : 0;
        if (Double.isNaN(value)) {
            return (short) 0x7e00;
        }
        double magnitude = Math.abs(value);
        // 65504 is the largest half; from halfway to the next power of two on, the value rounds to infinity
        if (magnitude >= 65520.0) {
            return (short) (sign | 0x7c00);
        }
        if (magnitude < 0x1p-14) {
            // subnormal: a count of 2^-24 units; a count of 1024 is the smallest normal, which the bits say too
            return (short) (sign | (int) Math.rint(magnitude * 0x1p24));
        }
        int exponent = Math.getExponent(magnitude);
        int mantissa = (int) Math.rint(Math.scalb(magnitude, 10 - exponent));
        // a mantissa rounded up to 2048 carries into the exponent, as the addition does
        return (short) (sign | (((exponent + 15) << 10) + (mantissa - 1024)));
    }

    public static double bfloat16ToDouble(short bits) {
        return Float.intBitsToFloat((bits & 0xffff) << 16);
    }

    public static short doubleToBfloat16(double value) {
        int sign = Double.doubleToRawLongBits(value) < 0 ? 0x8000 : 0;
        if (Double.isNaN(value)) {
            return (short) 0x7fc0;
        }
        double magnitude = Math.abs(value);
        if (magnitude >= 0x1.ffp127) {
            return (short) (sign | 0x7f80);
        }
        if (magnitude < 0x1p-126) {
            return (short) (sign | (int) Math.rint(magnitude * 0x1p133));
        }
        int exponent = Math.getExponent(magnitude);
        int mantissa = (int) Math.rint(Math.scalb(magnitude, 7 - exponent));
        return (short) (sign | (((exponent + 127) << 7) + (mantissa - 128)));
    }
}
