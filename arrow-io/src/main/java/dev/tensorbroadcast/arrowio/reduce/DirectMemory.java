package dev.tensorbroadcast.arrowio.reduce;

import java.lang.reflect.Field;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Loads from a direct buffer's memory by address, which C2 compiles to plain loads: the reduce kernel sums a chunk
 * where a positional read put it, without the JDK's copy into a heap array (docs/benchmarks.md, issue 28).
 * {@code sun.misc.Unsafe} is in {@code jdk.unsupported}, open to the class path without any option; the buffer's
 * address is read through the field offset of {@code Buffer.address}, which needs no opening either.
 */
final class DirectMemory {
    /** Whether loads by address see the little-endian bytes of a {@code .npy} as they are. */
    static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private static final sun.misc.Unsafe UNSAFE = unsafe();
    private static final long ADDRESS = UNSAFE.objectFieldOffset(addressField());

    private DirectMemory() {}

    /** The address of {@code buffer}'s byte at {@code position()}; valid while the buffer is reachable. */
    static long address(ByteBuffer buffer) {
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException("a heap buffer has no address");
        }
        return UNSAFE.getLong(buffer, ADDRESS) + buffer.position();
    }

    static float getFloat(long address) {
        return UNSAFE.getFloat(address);
    }

    static double getDouble(long address) {
        return UNSAFE.getDouble(address);
    }

    static short getShort(long address) {
        return UNSAFE.getShort(address);
    }

    private static sun.misc.Unsafe unsafe() {
        try {
            Field field = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            return (sun.misc.Unsafe) field.get(null);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static Field addressField() {
        try {
            return Buffer.class.getDeclaredField("address");
        } catch (NoSuchFieldException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
