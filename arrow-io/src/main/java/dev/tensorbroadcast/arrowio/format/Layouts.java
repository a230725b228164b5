package dev.tensorbroadcast.arrowio.format;

/** Bulk rearrangements of raw element bytes: axis permutations, byte order, bit packing. No per-element dispatch. */
public final class Layouts {
    private Layouts() {}

    /**
     * Rewrites elements stored row-major in a physical axis order as row-major in logical order.
     *
     * @param src the elements, {@code itemSize} bytes each, row-major over the physical shape
     * @param logicalDims the logical shape
     * @param physicalAxes physical axis {@code j} is logical axis {@code physicalAxes[j]}; so the physical shape is
     *     {@code logicalDims[physicalAxes[j]]}
     */
    public static byte[] toLogicalOrder(byte[] src, int itemSize, long[] logicalDims, int[] physicalAxes) {
        int rank = logicalDims.length;
        byte[] dst = new byte[src.length];
        if (src.length == 0) {
            return dst;
        }
        long[] srcStride = physicalStrides(logicalDims, physicalAxes);
        int last = rank - 1;
        int inner = rank == 0 ? 1 : (int) logicalDims[last];
        int innerStride = rank == 0 ? 0 : (int) srcStride[last] * itemSize;
        long[] index = new long[rank];
        int out = 0;
        long base = 0;
        while (out < dst.length) {
            int in = (int) base * itemSize;
            if (itemSize == 1) {
                for (int i = 0; i < inner; i++, in += innerStride) {
                    dst[out++] = src[in];
                }
            } else {
                for (int i = 0; i < inner; i++, in += innerStride, out += itemSize) {
                    System.arraycopy(src, in, dst, out, itemSize);
                }
            }
            base = next(index, base, logicalDims, srcStride, last);
        }
        return dst;
    }

    /** The stride, in items of the physical layout, of each logical axis. */
    public static long[] physicalStrides(long[] logicalDims, int[] physicalAxes) {
        long[] strides = new long[logicalDims.length];
        long stride = 1;
        for (int j = logicalDims.length - 1; j >= 0; j--) {
            strides[physicalAxes[j]] = stride;
            stride *= logicalDims[physicalAxes[j]];
        }
        return strides;
    }

    /**
     * Steps the row-major logical index {@code index} over its first {@code axes} axes (an odometer) and returns the
     * physical position {@code position} moves to, given the {@link #physicalStrides}.
     */
    public static long next(long[] index, long position, long[] logicalDims, long[] strides, int axes) {
        for (int a = axes - 1; a >= 0; a--) {
            position += strides[a];
            if (++index[a] < logicalDims[a]) {
                return position;
            }
            position -= strides[a] * logicalDims[a];
            index[a] = 0;
        }
        return position;
    }

    /** Reverses the bytes of every {@code width}-byte unit in place. */
    public static void swapBytes(byte[] data, int width) {
        if (width == 1) {
            return;
        }
        for (int at = 0; at + width <= data.length; at += width) {
            for (int lo = at, hi = at + width - 1; lo < hi; lo++, hi--) {
                byte b = data[lo];
                data[lo] = data[hi];
                data[hi] = b;
            }
        }
    }

    /** One byte per element, zero meaning false, to an Arrow bit buffer (least significant bit first). */
    public static byte[] packBits(byte[] bytes, int count) {
        byte[] bits = new byte[(count + 7) >>> 3];
        for (int i = 0; i < count; i++) {
            if (bytes[i] != 0) {
                bits[i >>> 3] |= (byte) (1 << (i & 7));
            }
        }
        return bits;
    }
}
