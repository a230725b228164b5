package dev.tensorbroadcast.arrowio.format.npy;

import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.planner.DType;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code .npy} element type ({@code descr}) this project reads, and how its bytes are laid out in the file.
 *
 * @param dtype the tensor's element type
 * @param itemSize bytes per element in the file
 * @param swapWidth the width of each byte-swapped unit when the file is big-endian (the component of a complex
 *     number, a UTF-32 code unit), or 1 when nothing is swapped
 * @param kind how the bytes become {@link dtype} values
 * @param bigEndian whether multi-byte units are stored most significant byte first ({@code >}); {@code <}, {@code |}
 *     and {@code =} (native, which this reader takes to be little-endian) are little-endian
 */
record NpyDType(DType dtype, int itemSize, int swapWidth, Kind kind, boolean bigEndian) {
    /** The descrs this reader accepts, for error messages. */
    static final String SUPPORTED =
            "b1, i1, i2, i4, i8, u1, u2, u4, u8, f2, f4, f8, c8, c16, U<n> and S<n>, " + "with byte order <, >, | or =";

    /** How file bytes become tensor values. */
    enum Kind {
        /** Little-endian fixed-width bytes: copied (swapped when big-endian). */
        FIXED,
        /** One byte per element, zero false, anything else true: bit-packed. */
        BOOL,
        /** UTF-32 code units, trailing NULs stripped: encoded as UTF-8. */
        UNICODE,
        /** Bytes, trailing NULs stripped: must be valid UTF-8. */
        BYTES
    }

    // the longest item numpy can describe is far below this; it only keeps the arithmetic small
    private static final long MAX_STRING_ITEM = 1L << 24;
    private static final Pattern DESCR = Pattern.compile("([<>|=]?)([a-zA-Z?]+)([0-9]*)");

    /** Parses {@code descr}; {@code name} names the file in errors. */
    static NpyDType parse(String name, String descr) {
        Matcher m = DESCR.matcher(descr);
        if (!m.matches()) {
            throw unsupported(name, descr);
        }
        boolean big = m.group(1).equals(">");
        String code = m.group(2);
        String size = m.group(3);
        NpyDType type = switch (code + size) {
            case "b1" -> new NpyDType(DType.BOOL, 1, 1, Kind.BOOL, big);
            case "i1" -> fixed(DType.INT8, 1, big);
            case "i2" -> fixed(DType.INT16, 2, big);
            case "i4" -> fixed(DType.INT32, 4, big);
            case "i8" -> fixed(DType.INT64, 8, big);
            case "u1" -> fixed(DType.UINT8, 1, big);
            case "u2" -> fixed(DType.UINT16, 2, big);
            case "u4" -> fixed(DType.UINT32, 4, big);
            case "u8" -> fixed(DType.UINT64, 8, big);
            case "f2" -> fixed(DType.FLOAT16, 2, big);
            case "f4" -> fixed(DType.FLOAT32, 4, big);
            case "f8" -> fixed(DType.FLOAT64, 8, big);
            case "c8" -> new NpyDType(DType.COMPLEX64, 8, 4, Kind.FIXED, big);
            case "c16" -> new NpyDType(DType.COMPLEX128, 16, 8, Kind.FIXED, big);
            default -> null;
        };
        if (type != null) {
            return type;
        }
        if ((code.equals("U") || code.equals("S")) && !size.isEmpty()) {
            long chars = size.length() > 9 ? Long.MAX_VALUE : Long.parseLong(size);
            if (chars < 1 || chars > MAX_STRING_ITEM) {
                throw new SourceFormatException(
                        name, "string dtype '" + descr + "' must hold from 1 to " + MAX_STRING_ITEM + " characters");
            }
            return code.equals("U")
                    ? new NpyDType(DType.STRING, (int) chars * 4, 4, Kind.UNICODE, big)
                    : new NpyDType(DType.STRING, (int) chars, 1, Kind.BYTES, big);
        }
        throw unsupported(name, descr);
    }

    private static NpyDType fixed(DType dtype, int width, boolean big) {
        return new NpyDType(dtype, width, width, Kind.FIXED, big);
    }

    static SourceFormatException unsupported(String name, String descr) {
        String hint = descr.matches("[<>|=]?O[0-9]*")
                ? " (object arrays hold pickled Python objects)"
                : descr.matches("[<>|=]?V[0-9]*") ? " (void/structured records)" : "";
        return rejection(name, "'" + descr + "'" + hint);
    }

    /** A descr that is not a string: numpy writes a list of fields for structured dtypes. */
    static SourceFormatException notAString(String name, String descrText) {
        return rejection(name, descrText + " (structured dtypes are not supported)");
    }

    private static SourceFormatException rejection(String name, String shown) {
        return new SourceFormatException(name, "unsupported dtype " + shown + "; supported: " + SUPPORTED);
    }

    /** How the element type reads in messages: {@code float32}, {@code <U5 strings}. */
    String describe(String descr) {
        return kind == Kind.UNICODE || kind == Kind.BYTES ? descr + " string" : dtype.typeName();
    }
}
