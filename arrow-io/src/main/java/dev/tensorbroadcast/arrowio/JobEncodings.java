package dev.tensorbroadcast.arrowio;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.CopyProgram;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Encoded pieces of output (a Zarr chunk's object bytes, an Arrow IPC batch's compressed tensor buffers, a Parquet
 * page) shared by the tasks of a job that read one source object:
 * the embedded engine's tasks, or a Spark executor's (a broadcast value is one object per JVM). When the copy
 * program proves a task's piece equal to the canonical piece named by a key (the piece at the same place of the
 * other dims in the first partition, say), the first task to need it encodes it and every other task writes those
 * bytes: a source that does not vary along the partitioned dim is compressed once per job, not once per task.
 * The encoders are deterministic, so every file is byte for byte what encoding it again gives.
 *
 * <p>Entries live while their source object does (weakly keyed: a job's source is dropped when the job ends), at
 * most {@link #MAX_BYTES} and {@link #MAX_ENTRIES} per source; past those a task encodes its own piece, as before.
 */
public final class JobEncodings {
    /** Encoded bytes kept per source object. */
    static final long MAX_BYTES = 256L << 20;
    /** Entries kept per source object. */
    static final int MAX_ENTRIES = 1 << 16;

    private static final Map<SourceTensor, JobEncodings> BY_SOURCE = new WeakHashMap<>();

    private final ConcurrentHashMap<Object, CompletableFuture<?>> entries = new ConcurrentHashMap<>();
    private final AtomicLong bytes = new AtomicLong();

    private JobEncodings() {}

    /** What encodes a piece; called by the first task that needs it. */
    @FunctionalInterface
    public interface Encoder {
        byte[] encode() throws IOException;
    }

    /** The bytes of an encoded piece, and whether this call encoded them (false: another task did). */
    @SuppressWarnings("ArrayRecordComponent") // a carrier of bytes, never compared
    public record Encoded(byte[] bytes, boolean encodedHere) {
        public Encoded {
            requireNonNull(bytes, "bytes is null");
        }
    }

    /** The shared encodings of the tasks that read {@code source} (compared by identity). */
    public static JobEncodings of(SourceTensor source) {
        requireNonNull(source, "source is null");
        synchronized (BY_SOURCE) {
            return BY_SOURCE.computeIfAbsent(source, ignored -> new JobEncodings());
        }
    }

    /**
     * The bytes of the piece {@code key} names (its value must decide every encoded byte: program, layout, codec,
     * place), encoded by {@code encoder} here when no task has, else waited for. The caller must have proven its
     * piece equal to the one {@code key} names.
     */
    public Encoded encodeOnce(Object key, Encoder encoder) throws IOException {
        requireNonNull(key, "key is null");
        requireNonNull(encoder, "encoder is null");
        CompletableFuture<?> existing = entries.get(key);
        if (existing == null && entries.size() < MAX_ENTRIES && bytes.get() < MAX_BYTES) {
            CompletableFuture<byte[]> mine = new CompletableFuture<>();
            existing = entries.putIfAbsent(key, mine);
            if (existing == null) {
                return new Encoded(encodeInto(key, mine, encoder), true);
            }
        }
        if (existing != null) {
            try {
                return new Encoded((byte[]) existing.get(), false);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("Cannot wait for another task's encoding: interrupted");
            } catch (ExecutionException e) {
                // the task encoding it failed (its own error is its to report): encode ours
            }
        }
        return new Encoded(encoder.encode(), true);
    }

    private byte[] encodeInto(Object key, CompletableFuture<byte[]> mine, Encoder encoder) throws IOException {
        byte[] encoded;
        try {
            encoded = encoder.encode();
        } catch (Throwable e) {
            entries.remove(key, mine);
            mine.completeExceptionally(e);
            throw e;
        }
        mine.complete(encoded);
        if (bytes.addAndGet(encoded.length) > MAX_BYTES) {
            // over the budget: tasks waiting have their bytes; later ones encode their own
            entries.remove(key, mine);
            bytes.addAndGet(-encoded.length);
        }
        return encoded;
    }

    /**
     * What a task kept for {@code key} with {@link #offer}, if one has; never waits. The caller must have proven its
     * piece equal to the one {@code key} names, and must not change the value.
     */
    public <T> Optional<T> find(Object key, Class<T> type) {
        requireNonNull(key, "key is null");
        CompletableFuture<?> entry = entries.get(key);
        if (entry == null || !entry.isDone() || entry.isCompletedExceptionally()) {
            return Optional.empty();
        }
        return Optional.of(type.cast(entry.join()));
    }

    /**
     * Keeps {@code value}, what the piece {@code key} names encodes to ({@code valueBytes} of it), for the job's
     * other tasks, unless one kept it first or the budget is spent. For writers whose encoding of a piece is spread
     * over several calls (Arrow's unloader, a Parquet row group), where {@link #encodeOnce} cannot wrap it: a task
     * that finds nothing encodes its own piece, so two tasks at most encode the same piece at once, and none waits.
     */
    public void offer(Object key, Object value, long valueBytes) {
        requireNonNull(key, "key is null");
        requireNonNull(value, "value is null");
        if (entries.containsKey(key) || entries.size() >= MAX_ENTRIES) {
            return;
        }
        if (bytes.addAndGet(valueBytes) > MAX_BYTES
                || entries.putIfAbsent(key, CompletableFuture.completedFuture(value)) != null) {
            bytes.addAndGet(-valueBytes);
        }
    }

    /**
     * Where output elements {@code [start, start + length)} of the kernel's program have the copy that every task
     * names them by: the range with the index of each level that repeats (source stride 0) at 0, when the program
     * proves the two equal and some other range shares it (so a range of a source that does not vary along the
     * partitioned dim is named by its place in the first rows); -1 when no other task's range can share its encoding
     * (a kernel over a slice of the source, a range that repeats nowhere).
     */
    public static long sharedStart(TensorKernel kernel, long start, long length) {
        CopyProgram program = kernel.program();
        if (!kernel.readsWholeSource() || length <= 0 || program.elements() == 0) {
            return -1;
        }
        long[] counts = program.counts();
        long[] strides = program.strides();
        long block = program.elements();
        long shared = start;
        boolean repeatsElsewhere = false;
        for (int level = 0; level < counts.length; level++) {
            block /= counts[level];
            if (strides[level] != 0 || counts[level] < 2) {
                continue;
            }
            shared -= start / block % counts[level] * block;
            // the range one step further along a level that repeats: another range named the same
            long next = start + block;
            repeatsElsewhere |= next <= program.elements() - length && program.sameSource(start, next, length);
        }
        if (shared != start) {
            return program.sameSource(shared, start, length) ? shared : -1;
        }
        return repeatsElsewhere ? start : -1;
    }
}
