package dev.tensorbroadcast.arrowio.format.arrow;

import dev.tensorbroadcast.arrowio.Bits;
import dev.tensorbroadcast.arrowio.format.Layouts;

/**
 * Reorders stored values into the tensor's row-major order, given for each output element the stored element it
 * comes from: rows reordered by an {@code index} column, and a permuted tensor's values within each row.
 */
public final class Gather {
    private Gather() {}

    /**
     * The stored element of each output element.
     *
     * @param rowSource the stored row of each output row, or null to keep the stored order
     * @param logicalDims the logical shape of one row's stored values
     * @param physicalAxes physical axis {@code j} of a row is logical axis {@code physicalAxes[j]}; null: row-major
     */
    public static int[] elementMap(int rows, int[] rowSource, long[] logicalDims, int[] physicalAxes) {
        int rank = logicalDims.length;
        int listSize = 1;
        for (long dim : logicalDims) {
            listSize *= (int) dim;
        }
        int[] within = new int[listSize];
        if (physicalAxes == null) {
            for (int l = 0; l < listSize; l++) {
                within[l] = l;
            }
        } else {
            long[] strides = Layouts.physicalStrides(logicalDims, physicalAxes);
            long[] index = new long[rank];
            long source = 0;
            for (int l = 0; l < listSize; l++) {
                within[l] = (int) source;
                source = Layouts.next(index, source, logicalDims, strides, rank);
            }
        }
        int[] map = new int[rows * listSize];
        for (int r = 0; r < rows; r++) {
            int base = (rowSource == null ? r : rowSource[r]) * listSize;
            for (int l = 0; l < listSize; l++) {
                map[r * listSize + l] = base + within[l];
            }
        }
        return map;
    }

    static byte[] fixed(byte[] src, int width, int[] map) {
        byte[] dst = new byte[src.length];
        for (int e = 0; e < map.length; e++) {
            System.arraycopy(src, map[e] * width, dst, e * width, width);
        }
        return dst;
    }

    static byte[] bits(byte[] src, int[] map) {
        byte[] dst = new byte[src.length];
        for (int e = 0; e < map.length; e++) {
            int from = map[e];
            if (Bits.get(src, from)) {
                dst[e >>> 3] |= (byte) (1 << (e & 7));
            }
        }
        return dst;
    }

    /** Returns the new UTF-8 bytes and fills {@code dstOffsets}. */
    static byte[] strings(int[] offsets, byte[] utf8, int[] map, int[] dstOffsets) {
        byte[] dst = new byte[utf8.length];
        int at = 0;
        for (int e = 0; e < map.length; e++) {
            int from = offsets[map[e]];
            int length = offsets[map[e] + 1] - from;
            System.arraycopy(utf8, from, dst, at, length);
            at += length;
            dstOffsets[e + 1] = at;
        }
        return dst;
    }

    /** Validity of pairs (a complex number's parts) to one bit per pair: present only if both parts are. */
    static byte[] pairs(byte[] bits, int pairs) {
        byte[] dst = new byte[(pairs + 7) / 8];
        for (int p = 0; p < pairs; p++) {
            int a = 2 * p;
            if (Bits.get(bits, a) && Bits.get(bits, a + 1)) {
                dst[p >>> 3] |= (byte) (1 << (p & 7));
            }
        }
        return dst;
    }
}
