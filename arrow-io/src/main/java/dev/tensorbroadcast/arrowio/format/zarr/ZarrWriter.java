package dev.tensorbroadcast.arrowio.format.zarr;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.JobEncodings;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.ArrayLayout;
import dev.tensorbroadcast.arrowio.format.ObjectSink;
import dev.tensorbroadcast.arrowio.format.OutputCompression;
import dev.tensorbroadcast.arrowio.format.ZstdFrames;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.DType;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import java.util.zip.CRC32C;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Writes the chunk or shard objects of one slab of an array's first dim. A chunk is filled whole on the heap (its
 * positions outside the array hold the fill value, zero), encoded, and written; a shard streams its chunks one after
 * another and ends with its index and the index's CRC-32C. A chunk the copy program proves equal to the last chunk
 * written at the same place of the other dims takes that chunk's encoded bytes, compressed once; one proven equal to
 * the chunk at its place in the first chunk row takes the bytes the job's first task to need them encoded
 * ({@link JobEncodings}), so a source that does not vary along the first dim is compressed once per job. A chunk
 * whose bytes are all zero, the fill value, is not written, as Zarr allows: no object, or an empty entry of its
 * shard's index (and no shard object when all its chunks are); readers take a missing chunk as the fill value.
 */
final class ZarrWriter {
    /** Encoded chunks kept for reuse, at most this many bytes in all. */
    private static final long REUSE_BYTES = 256L << 20;
    /** Values filled per kernel call. */
    private static final long FILL_BYTES = 4L << 20;
    /** An empty chunk's offset and length in a shard index. */
    private static final long EMPTY = -1L;
    /** What a chunk of the fill value encodes to: nothing is written. */
    private static final byte[] SKIPPED = new byte[0];
    /** Zeros to compare a chunk with, a stretch at a time. */
    private static final byte[] ZEROS = new byte[64 << 10];

    private final TensorKernel kernel;
    private final CopyProgram program;
    private final ArrayLayout layout;
    private final ObjectSink sink;
    private final LongConsumer progress;
    private final long[] shape;
    private final long[] chunks;
    private final int width;
    private final Map<List<Long>, Encoded> last = new HashMap<>();
    /**
     * Where a chunk is filled, allocated at the first chunk this writer fills: a task whose chunks all take another
     * task's bytes needs none (zeroing a 128 MiB chunk per task costs more than writing its bytes).
     */
    private byte[] chunk;

    private long reusedBytes;
    private long reusedChunks;
    private long skippedChunks;

    /** A chunk already encoded: where it starts in the array, its extent, its bytes. */
    @SuppressWarnings("ArrayRecordComponent") // a chunk in flight, never compared
    private record Encoded(long origin, long[] extent, byte[] bytes) {}

    ZarrWriter(TensorKernel kernel, ArrayLayout layout, ObjectSink sink, LongConsumer progress) {
        this.kernel = requireNonNull(kernel, "kernel is null");
        this.program = kernel.program();
        this.layout = requireNonNull(layout, "layout is null");
        this.sink = requireNonNull(sink, "sink is null");
        this.progress = requireNonNull(progress, "progress is null");
        this.shape = layout.shape().dims();
        this.chunks = layout.chunks();
        this.width = ArrayLayout.storedBytes(layout.dtype());
        if (layout.chunkBytes() > ZarrFormat.MAX_CHUNK_BYTES) {
            throw new IllegalArgumentException("a chunk of " + layout.chunkBytes() + " bytes");
        }
    }

    /** Every block whose first-dim extent starts in {@code [first, end)}. */
    void write(long first, long end) throws IOException {
        long[] block = layout.block();
        long[] counts = ChunkGrid.counts(shape, block);
        long[] from = new long[shape.length];
        long[] to = counts.clone();
        if (shape.length > 0) {
            from[0] = first / block[0];
            to[0] = Math.min(counts[0], (end + block[0] - 1) / block[0]);
        }
        try (BufferAllocator allocator = new RootAllocator();
                ArrowBuf scratch = allocator.buffer(FILL_BYTES);
                ZstdFrames frames = layout.compression().codec() == OutputCompression.ZSTD
                        ? new ZstdFrames(
                                ZarrCodecs.zstdLevel(layout.compression().level()))
                        : null) {
            IOException[] failure = {null};
            ChunkGrid.forEach(from, to, coordinates -> {
                if (failure[0] != null) {
                    return;
                }
                try {
                    String key = ChunkGrid.key(coordinates, "/");
                    if (layout.sharded()) {
                        writeShard(coordinates, key, scratch, frames);
                    } else {
                        byte[] bytes = encodedChunk(coordinates.clone(), scratch, frames);
                        if (bytes != SKIPPED) {
                            try (OutputStream out = sink.create(key)) {
                                out.write(bytes);
                            }
                        }
                    }
                } catch (IOException e) {
                    failure[0] = e;
                }
            });
            if (failure[0] != null) {
                throw failure[0];
            }
        }
    }

    private void writeShard(long[] shardCoordinates, String key, ArrowBuf scratch, ZstdFrames frames)
            throws IOException {
        long[] shard = layout.shard();
        long[] perShard = new long[shape.length];
        long[] from = new long[shape.length];
        long[] to = new long[shape.length];
        for (int i = 0; i < shape.length; i++) {
            perShard[i] = shard[i] / chunks[i];
            from[i] = shardCoordinates[i] * perShard[i];
            to[i] = from[i] + perShard[i];
        }
        int count = Math.toIntExact(ChunkGrid.product(perShard, 0));
        ByteBuffer index = ByteBuffer.allocate(count * 16 + 4).order(ByteOrder.LITTLE_ENDIAN);
        long[] offset = {0};
        IOException[] failure = {null};
        // opened at the shard's first chunk that is not the fill value: a shard of none is not written
        OutputStream[] opened = {null};
        try (ShardStream out = new ShardStream(() -> sink.create(key), opened)) {
            ChunkGrid.forEach(from, to, coordinates -> {
                if (failure[0] != null) {
                    return;
                }
                boolean inside = true;
                for (int i = 0; i < shape.length; i++) {
                    inside &= coordinates[i] * chunks[i] < shape[i];
                }
                if (!inside) {
                    index.putLong(EMPTY).putLong(EMPTY);
                    return;
                }
                try {
                    byte[] bytes = encodedChunk(coordinates.clone(), scratch, frames);
                    if (bytes == SKIPPED) {
                        index.putLong(EMPTY).putLong(EMPTY);
                        return;
                    }
                    out.write(bytes);
                    index.putLong(offset[0]).putLong(bytes.length);
                    offset[0] += bytes.length;
                } catch (IOException e) {
                    failure[0] = e;
                }
            });
            if (failure[0] != null) {
                throw failure[0];
            }
            if (opened[0] == null) {
                return;
            }
            CRC32C crc = new CRC32C();
            crc.update(index.array(), 0, count * 16);
            index.putInt((int) crc.getValue());
            out.write(index.array());
        }
    }

    /** Where a shard's bytes go: the object, created at the first bytes written, closed if it was. */
    private static final class ShardStream implements AutoCloseable {
        private final ObjectOpener opener;
        private final OutputStream[] opened;

        ShardStream(ObjectOpener opener, OutputStream[] opened) {
            this.opener = opener;
            this.opened = opened;
        }

        void write(byte[] bytes) throws IOException {
            if (opened[0] == null) {
                opened[0] = opener.open();
            }
            opened[0].write(bytes);
        }

        @Override
        public void close() throws IOException {
            if (opened[0] != null) {
                opened[0].close();
            }
        }
    }

    @FunctionalInterface
    private interface ObjectOpener {
        OutputStream open() throws IOException;
    }

    /** The chunk at {@code coordinates} (chunk grid), encoded: reused when proven equal to the last at its place. */
    private byte[] encodedChunk(long[] coordinates, ArrowBuf scratch, ZstdFrames frames) throws IOException {
        long[] origin = new long[shape.length];
        long[] extent = new long[shape.length];
        long elements = 1;
        for (int i = 0; i < shape.length; i++) {
            origin[i] = coordinates[i] * chunks[i];
            extent[i] = Math.min(chunks[i], shape[i] - origin[i]);
            elements *= extent[i];
        }
        ChunkGrid.Runs runs = ChunkGrid.Runs.of(shape, chunks, origin, extent);
        long originIndex = runs.arrayStarts().length == 0 ? 0 : runs.arrayStarts()[0];
        List<Long> place = place(coordinates);
        Encoded previous = last.get(place);
        if (previous != null
                && Arrays.equals(previous.extent(), extent)
                && provenEqual(runs, previous.origin(), originIndex)) {
            progress.accept(elements);
            if (previous.bytes() == SKIPPED) {
                skippedChunks++;
            } else {
                reusedChunks++;
            }
            return previous.bytes();
        }
        long chunkElements = elements;
        JobEncodings.Encoder encoder = () -> filledAndEncoded(runs, chunkElements, scratch, frames);
        byte[] bytes;
        if (sharedInJob(coordinates, extent, runs, originIndex)) {
            JobEncodings.Encoded encoded = JobEncodings.of(kernel.source())
                    .encodeOnce(
                            new SharedChunk(
                                    program,
                                    layout,
                                    place,
                                    Arrays.stream(extent).boxed().toList()),
                            encoder);
            bytes = encoded.bytes();
            if (!encoded.encodedHere() && bytes != SKIPPED) {
                reusedChunks++;
            }
        } else {
            bytes = encoder.encode();
        }
        if (bytes == SKIPPED) {
            skippedChunks++;
        }
        if (previous != null) {
            reusedBytes -= previous.bytes().length;
        }
        if (reusedBytes + bytes.length <= REUSE_BYTES) {
            last.put(place, new Encoded(originIndex, extent, bytes));
            reusedBytes += bytes.length;
        } else {
            last.remove(place);
        }
        progress.accept(elements);
        return bytes;
    }

    /** The chunk filled into {@link #chunk} and encoded, or {@link #SKIPPED} when it is the fill value throughout. */
    private byte[] filledAndEncoded(ChunkGrid.Runs runs, long elements, ArrowBuf scratch, ZstdFrames frames)
            throws IOException {
        if (chunk == null) {
            chunk = new byte[Math.toIntExact(layout.chunkBytes())];
        }
        if (elements < ChunkGrid.product(chunks, 0)) {
            Arrays.fill(chunk, (byte) 0);
        }
        for (int r = 0; r < runs.arrayStarts().length; r++) {
            fill(runs.arrayStarts()[r], runs.chunkStarts()[r], runs.length(), chunk, scratch);
        }
        return isZero(chunk) ? SKIPPED : ZarrCodecs.encode(layout.compression(), chunk, frames);
    }

    /**
     * Whether the program proves this chunk equal to the chunk at its place of the other dims in the first chunk row
     * (the usual case: a source that does not vary along the first dim), so that one task of the job encodes it for
     * all ({@link JobEncodings}); only for a kernel that reads the whole source, the object every task shares.
     */
    private boolean sharedInJob(long[] coordinates, long[] extent, ChunkGrid.Runs runs, long originIndex) {
        // an uncompressed chunk costs only its fill: not worth holding its bytes for the job
        if (shape.length == 0
                || layout.compression().codec() == OutputCompression.NONE
                || !kernel.readsWholeSource()
                || extent[0] != Math.min(chunks[0], shape[0])) {
            return false;
        }
        long row = chunks[0] * ChunkGrid.product(shape, 1);
        if (coordinates[0] > 0) {
            return provenEqual(runs, originIndex - coordinates[0] * row, originIndex);
        }
        // the first chunk row is kept for the others only when the next is proven equal to it
        return shape[0] >= 2 * chunks[0] && provenEqual(runs, originIndex + row, originIndex);
    }

    /** What decides a shared chunk's bytes besides its source: the program, the layout, its place and extent. */
    private record SharedChunk(CopyProgram program, ArrayLayout layout, List<Long> place, List<Long> extent) {}

    /** How many chunks took an earlier chunk's encoded bytes. */
    long reusedChunks() {
        return reusedChunks;
    }

    /** How many chunks were the fill value throughout, and not written. */
    long skippedChunks() {
        return skippedChunks;
    }

    /** Whether every byte of {@code chunk} is zero: every value the fill value ({@code -0.0} is not). */
    private static boolean isZero(byte[] chunk) {
        for (int at = 0; at < chunk.length; at += ZEROS.length) {
            int length = Math.min(ZEROS.length, chunk.length - at);
            if (Arrays.mismatch(chunk, at, at + length, ZEROS, 0, length) >= 0) {
                return false;
            }
        }
        return true;
    }

    /** Where a chunk is in the dims after the first: chunks along the first dim at one place repeat most often. */
    private static List<Long> place(long[] coordinates) {
        Long[] rest = new Long[Math.max(0, coordinates.length - 1)];
        for (int i = 1; i < coordinates.length; i++) {
            rest[i - 1] = coordinates[i];
        }
        return List.of(rest);
    }

    private boolean provenEqual(ChunkGrid.Runs runs, long previousOrigin, long origin) {
        long distance = origin - previousOrigin;
        for (long start : runs.arrayStarts()) {
            if (!program.sameSource(start - distance, start, runs.length())) {
                return false;
            }
        }
        return true;
    }

    /** Fills array elements {@code [arrayStart, + length)} into the chunk from element {@code chunkStart}. */
    private void fill(long arrayStart, long chunkStart, long length, byte[] chunk, ArrowBuf scratch) {
        boolean bits = layout.dtype() == DType.BOOL;
        long perCall = bits ? FILL_BYTES * 8 : FILL_BYTES / width;
        for (long done = 0; done < length; done += perCall) {
            long count = Math.min(perCall, length - done);
            kernel.fillValues(arrayStart + done, arrayStart + done + count, scratch);
            int at = Math.toIntExact((chunkStart + done) * width);
            if (bits) {
                for (int i = 0; i < count; i++) {
                    chunk[at + i] = (byte) ((scratch.getByte(i >>> 3) >>> (i & 7)) & 1);
                }
            } else {
                scratch.getBytes(0, chunk, at, Math.toIntExact(count * width));
            }
        }
    }
}
