package dev.tensorbroadcast.job.sink;

import dev.tensorbroadcast.arrowio.format.zarr.ZarrFormat;

/** The sizes an array format's chunks keep to: one chunk is filled on a task's heap. */
final class ArrayFormatLimits {
    static final long MAX_CHUNK_BYTES = ZarrFormat.MAX_CHUNK_BYTES;
    /** A default chunk is a partition's rows, and at most this. */
    static final long DEFAULT_CHUNK_BYTES = 128L << 20;

    private ArrayFormatLimits() {}
}
