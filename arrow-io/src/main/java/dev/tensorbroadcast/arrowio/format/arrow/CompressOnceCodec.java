package dev.tensorbroadcast.arrowio.format.arrow;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.JobEncodings;
import dev.tensorbroadcast.arrowio.RepeatedRows;
import dev.tensorbroadcast.arrowio.TensorBatch;
import dev.tensorbroadcast.planner.CopyProgram;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;

/**
 * Arrow IPC body compression that compresses a batch's tensor buffers once and hands the same compressed buffers to
 * every later batch of the file that the copy program proves holds the same values ({@link RepeatedRows}). The
 * codecs are deterministic, so the file is byte for byte what compressing every batch would give. The {@code index}
 * and kept columns differ from batch to batch and are compressed as always. A batch that no earlier batch of the
 * file repeats may repeat one of another file of the job (the source does not vary along the partitioned dim): it
 * takes the buffers another task compressed ({@link JobEncodings}), and the buffers it compresses itself are kept for
 * the others, so such a job compresses each distinct batch about once, not once per task.
 *
 * <p>Arrow's unloader hands every buffer to {@link #compress} in schema order; the tensor's buffers are told apart
 * by their addresses, which a {@link TensorBatch} keeps for the life of the file.
 */
final class CompressOnceCodec implements CompressionCodec, TensorBatch.Repeats, AutoCloseable {
    /** A compressed buffer and the length of the buffer it was compressed from. */
    private record Compressed(ArrowBuf buffer, long uncompressedBytes) {}

    /**
     * What decides a batch's compressed tensor buffers besides its source: the program, the row size, the codec and
     * level, and the output elements the batch holds (named by {@link JobEncodings#sharedStart}).
     */
    private record SharedBatch(
            CopyProgram program,
            long rowElements,
            CompressionUtil.CodecType codec,
            int level,
            long start,
            long length) {}

    /** A batch's compressed tensor buffers, in {@link TensorBatch#tensorBuffers} order. */
    @SuppressWarnings("ArrayRecordComponent") // bytes shared read-only between tasks, never compared
    private record SharedBuffers(byte[][] buffers) {
        long bytes() {
            long bytes = 0;
            for (byte[] buffer : buffers) {
                bytes += buffer.length;
            }
            return bytes;
        }
    }

    private final CompressionCodec codec;
    private final TensorBatch batch;
    private final RepeatedRows<Map<Long, Compressed>> repeated;
    /** The level the codec compresses at, which decides its bytes (0: its default). */
    private final int level;
    /** The encodings the job's tasks share (those of the batch's source object). */
    private final JobEncodings job;
    /** The tensor buffers' addresses this batch, and what they compress to: found, or being made. */
    private List<Long> tensorAddresses = List.of();

    private Map<Long, Compressed> found;
    private Map<Long, Compressed> making;
    private long makingFirstRow;
    private int makingRows;
    /** The batch being made as the job names it, when its buffers are kept for the others; else null. */
    private SharedBatch makingShared;
    /** The buffers another task compressed for this batch, or null. */
    private SharedBuffers fromJob;

    private long reusedBatches;

    private CompressOnceCodec(CompressionCodec codec, int level, TensorBatch batch, long maxBytes) {
        this.codec = requireNonNull(codec, "codec is null");
        this.batch = requireNonNull(batch, "batch is null");
        this.level = level;
        this.job = JobEncodings.of(batch.kernel().source());
        this.repeated =
                RepeatedRows.of(batch.kernel().program(), batch.rowElements(), 8, maxBytes, CompressOnceCodec::release);
    }

    /**
     * Compresses with {@code codec} at {@code level} (0: its default), keeping at most {@code maxBytes} of compressed
     * tensor buffers for reuse.
     */
    static CompressOnceCodec of(CompressionCodec codec, int level, TensorBatch batch, long maxBytes) {
        CompressOnceCodec once = new CompressOnceCodec(codec, level, batch, maxBytes);
        batch.repeatWith(once);
        return once;
    }

    /** How many batches took their tensor buffers from an earlier batch, of this file or another task's. */
    long reusedBatches() {
        return reusedBatches;
    }

    @Override
    public boolean before(long firstRow, int rows) {
        keepMade();
        tensorAddresses =
                batch.tensorBuffers().stream().map(ArrowBuf::memoryAddress).toList();
        found = repeated.find(firstRow, rows, 0).orElse(null);
        fromJob = null;
        makingShared = null;
        if (found != null) {
            reusedBatches++;
            return true;
        }
        making = new HashMap<>();
        makingFirstRow = firstRow;
        makingRows = rows;
        long rowElements = batch.rowElements();
        long start = JobEncodings.sharedStart(batch.kernel(), firstRow * rowElements, rows * rowElements);
        if (start < 0) {
            return false;
        }
        SharedBatch shared = new SharedBatch(
                batch.kernel().program(), rowElements, codec.getCodecType(), level, start, rows * rowElements);
        fromJob = job.find(shared, SharedBuffers.class).orElse(null);
        if (fromJob == null) {
            makingShared = shared;
            return false;
        }
        reusedBatches++;
        return true;
    }

    @Override
    public ArrowBuf compress(BufferAllocator allocator, ArrowBuf uncompressed) {
        long address = uncompressed.memoryAddress();
        if (uncompressed.writerIndex() == 0 || !tensorAddresses.contains(address)) {
            return codec.compress(allocator, uncompressed);
        }
        if (found != null) {
            Compressed compressed = found.get(address);
            if (compressed == null || compressed.uncompressedBytes() != uncompressed.writerIndex()) {
                throw new IllegalStateException("Cannot reuse the compressed tensor buffer at " + address + ": the "
                        + "earlier batch's is "
                        + (compressed == null ? "missing" : compressed.uncompressedBytes() + " bytes") + ", this one "
                        + uncompressed.writerIndex() + " bytes");
            }
            // the codec contract: compress releases the buffer it was given
            uncompressed.close();
            compressed.buffer().getReferenceManager().retain();
            return compressed.buffer();
        }
        long bytes = uncompressed.writerIndex();
        if (fromJob != null) {
            // another task's bytes, copied into this file's buffer and kept for this file's later batches
            int position = tensorAddresses.indexOf(address);
            if (position < 0 || position >= fromJob.buffers().length) {
                throw new IllegalStateException("Cannot reuse the job's compressed tensor buffer " + position
                        + ": the task that compressed the batch had " + fromJob.buffers().length);
            }
            byte[] shared = fromJob.buffers()[position];
            uncompressed.close();
            ArrowBuf copy = allocator.buffer(shared.length);
            copy.setBytes(0, shared);
            copy.writerIndex(shared.length);
            copy.getReferenceManager().retain();
            making.put(address, new Compressed(copy, bytes));
            return copy;
        }
        ArrowBuf result = codec.compress(allocator, uncompressed);
        if (making != null) {
            making.put(address, new Compressed(kept(allocator, result), bytes));
        }
        return result;
    }

    /**
     * The compressed buffer to keep: itself, or a copy of its bytes when it was allocated for the worst case and
     * holds far less (a repeating batch compresses to a small fraction of its size), so the budget counts real bytes.
     */
    private static ArrowBuf kept(BufferAllocator allocator, ArrowBuf compressed) {
        long length = compressed.writerIndex();
        if (compressed.capacity() <= 2 * length) {
            compressed.getReferenceManager().retain();
            return compressed;
        }
        ArrowBuf copy = allocator.buffer(length);
        copy.setBytes(0, compressed, 0, length);
        copy.writerIndex(length);
        return copy;
    }

    /** Keeps what the last batch's tensor compressed to, now that every buffer of it went through the codec. */
    private void keepMade() {
        if (making == null) {
            return;
        }
        Map<Long, Compressed> made = making;
        making = null;
        if (made.isEmpty()) {
            return;
        }
        if (makingShared != null) {
            offer(makingShared, made);
            makingShared = null;
        }
        long bytes = made.values().stream()
                .mapToLong(compressed -> compressed.buffer().writerIndex())
                .sum();
        repeated.add(makingFirstRow, makingRows, 0, made, bytes);
    }

    /** Keeps the batch's compressed tensor buffers for the job's other tasks, copied out of this file's memory. */
    private void offer(SharedBatch shared, Map<Long, Compressed> made) {
        byte[][] buffers = new byte[tensorAddresses.size()][];
        for (int i = 0; i < buffers.length; i++) {
            Compressed compressed = made.get(tensorAddresses.get(i));
            if (compressed == null) {
                // an empty buffer, or a batch whose write stopped: a task finding it could not write its batch
                return;
            }
            ArrowBuf buffer = compressed.buffer();
            buffers[i] = new byte[Math.toIntExact(buffer.writerIndex())];
            buffer.getBytes(0, buffers[i]);
        }
        SharedBuffers value = new SharedBuffers(buffers);
        job.offer(shared, value, value.bytes());
    }

    private static void release(Map<Long, Compressed> buffers) {
        buffers.values().forEach(compressed -> compressed.buffer().close());
    }

    @Override
    public ArrowBuf decompress(BufferAllocator allocator, ArrowBuf compressed) {
        return codec.decompress(allocator, compressed);
    }

    @Override
    public CompressionUtil.CodecType getCodecType() {
        return codec.getCodecType();
    }

    /** Releases every compressed buffer it kept. */
    @Override
    public void close() {
        try {
            if (making != null) {
                // the last batch: every buffer of it that went through the codec is whole
                if (makingShared != null) {
                    offer(makingShared, making);
                }
                release(making);
                making = null;
            }
        } finally {
            repeated.clear();
        }
    }
}
