package dev.tensorbroadcast.planner;

import java.util.Locale;
import java.util.Optional;

/**
 * Element types: every type of ONNX {@code Expand}. The planner knows them only as widths; how each is stored in
 * Arrow is arrow-io's business.
 */
public enum DType {
    BOOL("bool", 1),
    INT8("int8", 8),
    INT16("int16", 16),
    INT32("int32", 32),
    INT64("int64", 64),
    UINT8("uint8", 8),
    UINT16("uint16", 16),
    UINT32("uint32", 32),
    UINT64("uint64", 64),
    FLOAT16("float16", 16),
    BFLOAT16("bfloat16", 16),
    FLOAT32("float32", 32),
    FLOAT64("float64", 64),
    COMPLEX64("complex64", 64),
    COMPLEX128("complex128", 128),
    /** Variable width: UTF-8 bytes plus a 32-bit offset per element. */
    STRING("string", -1);

    /** Bits the planner assumes per string element when it has not seen the data: a 4-byte offset and 12 bytes. */
    public static final int ASSUMED_STRING_BITS = 128;

    private final String name;
    private final int bitWidth;

    DType(String name, int bitWidth) {
        this.name = name;
        this.bitWidth = bitWidth;
    }

    /** The name numpy (and the CLI) uses: {@code float32}, {@code bool}, {@code string}. */
    public String typeName() {
        return name;
    }

    public boolean isFixedWidth() {
        return bitWidth > 0;
    }

    /** Bits per element; {@code bool} is one bit, as Arrow stores it. Undefined for {@link #STRING}. */
    public int bitWidth() {
        if (bitWidth < 0) {
            throw new IllegalStateException("string has no fixed width");
        }
        return bitWidth;
    }

    /** Bytes per element for byte-addressed types (all but {@code bool} and {@code string}). */
    public int byteWidth() {
        if (bitWidth < 8) {
            throw new IllegalStateException(name + " is not stored in whole bytes");
        }
        return bitWidth / 8;
    }

    /** Bits per element for sizing plans: exact for fixed-width types, an assumption for strings. */
    public int sizingBits() {
        return bitWidth > 0 ? bitWidth : ASSUMED_STRING_BITS;
    }

    public static DType parse(String text) {
        Optional<DType> named = EnumNames.find(values(), DType::typeName, text);
        if (named.isPresent()) {
            return named.get();
        }
        String key = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        return switch (key) {
            case "float", "single" -> FLOAT32;
            case "double" -> FLOAT64;
            case "half" -> FLOAT16;
            case "str", "utf8", "unicode" -> STRING;
            default ->
                throw new InvalidRequestException("Cannot parse dtype '" + UserText.shown(text) + "': expected "
                        + EnumNames.accepted(values(), DType::typeName));
        };
    }

    @Override
    public String toString() {
        return name;
    }
}
