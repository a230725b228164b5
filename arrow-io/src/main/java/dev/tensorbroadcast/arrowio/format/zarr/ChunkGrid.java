package dev.tensorbroadcast.arrowio.format.zarr;

import java.util.function.Consumer;

/** Index arithmetic of a regular grid over an array: counts per dim, keys, and the runs of a chunk. */
final class ChunkGrid {
    private ChunkGrid() {}

    /** How many cells of {@code cell} cover {@code shape}, per dim. */
    static long[] counts(long[] shape, long[] cell) {
        long[] counts = new long[shape.length];
        for (int i = 0; i < shape.length; i++) {
            counts[i] = shape[i] == 0 ? 0 : (shape[i] + cell[i] - 1) / cell[i];
        }
        return counts;
    }

    /** The default chunk key: {@code c/0/1}; {@code c} for a scalar. */
    static String key(long[] coordinates, String separator) {
        StringBuilder key = new StringBuilder("c");
        for (long coordinate : coordinates) {
            key.append(separator).append(coordinate);
        }
        return key.toString();
    }

    /** Visits every coordinate in {@code [from, to)} per dim, in C order (the same array each time, changed). */
    static void forEach(long[] from, long[] to, Consumer<long[]> visit) {
        int rank = from.length;
        for (int i = 0; i < rank; i++) {
            if (from[i] >= to[i]) {
                return;
            }
        }
        long[] at = from.clone();
        while (true) {
            visit.accept(at);
            int dim = rank - 1;
            while (dim >= 0) {
                if (++at[dim] < to[dim]) {
                    break;
                }
                at[dim] = from[dim];
                dim--;
            }
            if (dim < 0) {
                return;
            }
        }
    }

    static long product(long[] dims, int from) {
        long product = 1;
        for (int i = from; i < dims.length; i++) {
            product = Math.multiplyExact(product, dims[i]);
        }
        return product;
    }

    /**
     * The runs of a chunk at {@code origin} (its cells {@code extent} within the array): contiguous both in the array
     * (C order over {@code shape}) and in the chunk (C order over {@code chunk}). Each run is
     * {@code [arrayStart, chunkStart]} (elements) of {@code length()} elements.
     */
    @SuppressWarnings("ArrayRecordComponent") // runs for one chunk's copy loop, never compared
    record Runs(long[] arrayStarts, long[] chunkStarts, long length) {
        static Runs of(long[] shape, long[] chunk, long[] origin, long[] extent) {
            int rank = shape.length;
            // the dims after k are spanned whole by the chunk, so a run goes across them
            int k = Math.max(0, rank - 1);
            while (k > 0 && chunk[k] == shape[k] && extent[k] == shape[k]) {
                k--;
            }
            long length = rank == 0 ? 1 : extent[k] * product(shape, k + 1);
            long count = 1;
            for (int i = 0; i < k; i++) {
                count = Math.multiplyExact(count, extent[i]);
            }
            long[] arrayStarts = new long[Math.toIntExact(count)];
            long[] chunkStarts = new long[arrayStarts.length];
            long[] arrayStrides = strides(shape);
            long[] chunkStrides = strides(chunk);
            long[] from = new long[k];
            long[] to = new long[k];
            System.arraycopy(extent, 0, to, 0, k);
            int[] next = {0};
            long arrayBase = 0;
            for (int i = 0; i < rank; i++) {
                arrayBase += origin[i] * arrayStrides[i];
            }
            long arrayOrigin = arrayBase;
            forEach(from, to, at -> {
                long array = arrayOrigin;
                long inChunk = 0;
                for (int i = 0; i < at.length; i++) {
                    array += at[i] * arrayStrides[i];
                    inChunk += at[i] * chunkStrides[i];
                }
                arrayStarts[next[0]] = array;
                chunkStarts[next[0]] = inChunk;
                next[0]++;
            });
            return new Runs(arrayStarts, chunkStarts, length);
        }
    }

    static long[] strides(long[] dims) {
        long[] strides = new long[dims.length];
        long stride = 1;
        for (int i = dims.length - 1; i >= 0; i--) {
            strides[i] = stride;
            stride = Math.multiplyExact(stride, dims[i]);
        }
        return strides;
    }
}
