package dev.tensorbroadcast.arrowio;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.CopyProgram;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What a writer made of earlier row ranges of one output (compressed buffers, compressed pages), found again for a
 * later range when the copy program proves the two hold the same values ({@link CopyProgram#sameSource}): equal
 * values, encoded the same way, compress to the same bytes, so the writer reuses them instead of compressing again.
 * Never a hash or a guess. Holds a few recent entries, within a byte budget, so memory stays bounded per task; an
 * entry leaving is handed to {@code release}.
 *
 * <p>Not thread-safe: one per file being written.
 */
public final class RepeatedRows<V> {
    private final CopyProgram program;
    private final long rowElements;
    private final int maxEntries;
    private final long maxBytes;
    private final Consumer<V> release;
    private final ArrayDeque<Entry<V>> entries = new ArrayDeque<>();
    private long bytes;

    /** @param variant what else decides the encoding besides the values (such as whether the batch has nulls) */
    private record Entry<V>(long firstRow, long rows, int variant, V value, long bytes) {}

    private RepeatedRows(CopyProgram program, long rowElements, int maxEntries, long maxBytes, Consumer<V> release) {
        this.program = requireNonNull(program, "program is null");
        this.rowElements = rowElements;
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
        this.release = requireNonNull(release, "release is null");
    }

    /**
     * Entries for rows of {@code rowElements} elements of {@code program}'s output; at most {@code maxEntries} of
     * them, holding at most {@code maxBytes} together (an entry larger than that is not kept).
     */
    public static <V> RepeatedRows<V> of(
            CopyProgram program, long rowElements, int maxEntries, long maxBytes, Consumer<V> release) {
        if (rowElements < 0 || maxEntries < 1 || maxBytes < 0) {
            throw new IllegalArgumentException("Cannot keep " + maxEntries + " entries of " + maxBytes + " bytes for"
                    + " rows of " + rowElements + " elements: need a row size of 0 or more and room for an entry");
        }
        return new RepeatedRows<>(program, rowElements, maxEntries, maxBytes, release);
    }

    /** The value kept for rows that hold the same values as {@code [firstRow, firstRow + rows)}, if any. */
    public Optional<V> find(long firstRow, long rows, int variant) {
        for (Entry<V> entry : entries) {
            if (entry.rows() == rows
                    && entry.variant() == variant
                    && program.sameSource(entry.firstRow() * rowElements, firstRow * rowElements, rows * rowElements)) {
                return Optional.of(entry.value());
            }
        }
        return Optional.empty();
    }

    /** Keeps what rows {@code [firstRow, firstRow + rows)} became, dropping the oldest entries beyond the budget. */
    public void add(long firstRow, long rows, int variant, V value, long valueBytes) {
        requireNonNull(value, "value is null");
        if (valueBytes > maxBytes) {
            release.accept(value);
            return;
        }
        entries.addLast(new Entry<>(firstRow, rows, variant, value, valueBytes));
        bytes += valueBytes;
        while (entries.size() > maxEntries || bytes > maxBytes) {
            Entry<V> oldest = entries.removeFirst();
            bytes -= oldest.bytes();
            release.accept(oldest.value());
        }
    }

    /** Releases every entry. */
    public void clear() {
        RuntimeException failure = null;
        for (Iterator<Entry<V>> it = entries.iterator(); it.hasNext(); ) {
            Entry<V> entry = it.next();
            it.remove();
            try {
                release.accept(entry.value());
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        bytes = 0;
        if (failure != null) {
            throw failure;
        }
    }
}
